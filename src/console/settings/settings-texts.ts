/** The texts of the crawl settings page. */
import { defineTexts } from '../i18n.js';

const pad = (value: number | undefined) => String(value ?? 0).padStart(2, '0');
const WEEKDAYS_EN = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const WEEKDAYS_JA = ['日曜日', '月曜日', '火曜日', '水曜日', '木曜日', '金曜日', '土曜日'];

export interface ScheduleWords {
  interval: number;
  min?: number;
  hour?: number;
  day_of_week?: number;
  day_of_month?: number;
}

export const settingsTexts = defineTexts({
  en: {
    title: 'Crawl settings',
    intro: 'Each setting crawls its seed URLs on its schedule and can feed a search service.',
    name: 'Name',
    seeds: 'Seed URLs',
    moreSeeds: (count: number) => `and ${count} more`,
    schedule: 'Schedule',
    nextRun: 'Next run',
    state: 'Now',
    running: 'Running',
    idle: 'Idle',
    runNow: 'Run now',
    started: (name: string, runId: number) => `Run ${runId} of "${name}" started.`,
    remove: 'Delete',
    removeTitle: 'Delete this crawl setting?',
    removeMessage: (name: string) =>
      `"${name}" stops crawling and its run in progress is cancelled. Its run history, artifacts and indexed pages stay.`,
    empty: 'This service group has no crawl setting yet.',
    emptyHint: 'Create one with "New setting": its seed URLs, scope and schedule.',
    editorsOnly: 'Only editors and owners create, run, pause and delete crawl settings.',
    create: 'New setting',
    pause: 'Pause schedule',
    resume: 'Resume schedule',
    paused: (name: string) => `The schedule of "${name}" is paused; Run now still works.`,
    resumed: (name: string) => `The schedule of "${name}" runs again from its next time.`,
    pausedBadge: 'Paused',
    scheduleText: (schedule: ScheduleWords) => {
      const time = `${pad(schedule.hour)}:${pad(schedule.min)}`;
      switch (schedule.interval) {
        case 1:
          return `Every hour at minute ${pad(schedule.min)}`;
        case 2:
          return `Every day at ${time}`;
        case 3:
          return `Every ${WEEKDAYS_EN[schedule.day_of_week ?? 0]} at ${time}`;
        case 4:
          return `Every month on day ${schedule.day_of_month ?? 1} at ${time}`;
        default:
          return 'Not scheduled';
      }
    },
  },
  ja: {
    title: 'クロール設定',
    intro: '各設定はスケジュールに従ってシード URL をクロールし、検索サービスにページを登録できます。',
    name: '名前',
    seeds: 'シード URL',
    moreSeeds: (count: number) => `ほか ${count} 件`,
    schedule: 'スケジュール',
    nextRun: '次回実行',
    state: '現在',
    running: '実行中',
    idle: '待機中',
    runNow: '今すぐ実行',
    started: (name: string, runId: number) => `「${name}」の実行 ${runId} を開始しました。`,
    remove: '削除',
    removeTitle: 'このクロール設定を削除しますか？',
    removeMessage: (name: string) =>
      `「${name}」のクロールを停止し、実行中の実行はキャンセルされます。実行履歴・成果物・登録済みページは残ります。`,
    empty: 'このサービスグループにはまだクロール設定がありません。',
    emptyHint: '「新しい設定」でシード URL・範囲・スケジュールを指定して作成してください。',
    editorsOnly: 'クロール設定の作成・実行・一時停止・削除は editor と owner だけが行えます。',
    create: '新しい設定',
    pause: 'スケジュールを一時停止',
    resume: 'スケジュールを再開',
    paused: (name: string) => `「${name}」のスケジュールを一時停止しました。「今すぐ実行」は使えます。`,
    resumed: (name: string) => `「${name}」のスケジュールを再開しました。次の時刻から実行します。`,
    pausedBadge: '一時停止中',
    scheduleText: (schedule: ScheduleWords) => {
      const time = `${pad(schedule.hour)}:${pad(schedule.min)}`;
      switch (schedule.interval) {
        case 1:
          return `毎時 ${pad(schedule.min)} 分`;
        case 2:
          return `毎日 ${time}`;
        case 3:
          return `毎週${WEEKDAYS_JA[schedule.day_of_week ?? 0]} ${time}`;
        case 4:
          return `毎月 ${schedule.day_of_month ?? 1} 日 ${time}`;
        default:
          return 'スケジュールなし';
      }
    },
  },
});
