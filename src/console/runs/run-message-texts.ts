/**
 * A run's message said from its parts' codes and values (docs/api.md, Run messages), in English
 * and Japanese. Values a part keeps only in English (URLs with their reasons) are shown as given.
 */
import { defineTexts } from '../i18n.js';

type Values = Record<string, string | number>;

const OUTCOMES_JA: Record<string, string> = {
  completed: '完了',
  limit_reached: '上限に到達',
  cancelled: 'キャンセル',
  timed_out: '時間切れ',
};

const n = (values: Values, name: string) => Number(values[name] ?? 0);
const s = (values: Values, name: string) => String(values[name] ?? '');

export const runMessageTexts = defineTexts({
  en: {
    separator: '; ',
    seeds_not_fetched: (v: Values) =>
      `${n(v, 'not_fetched')} of ${n(v, 'seeds')} seeds not fetched: ${s(v, 'detail')}`,
    no_seed_fetched: (v: Values) => `no seed could be fetched: ${s(v, 'detail')}`,
    sitemaps: (v: Values) =>
      `sitemaps: ${n(v, 'read')} of ${n(v, 'files')} file(s) read, ${n(v, 'listed')} URL(s) listed, ` +
      `${n(v, 'added')} new to the crawl` +
      (s(v, 'problems') === '' ? '' : `; sitemap problems: ${s(v, 'problems')}`),
    hosts: (v: Values) => `hosts: ${s(v, 'detail')}`,
    kept_pages: (v: Values) =>
      `unchanged: ${[
        n(v, 'not_modified') >= 0
          ? `${n(v, 'not_modified')} page(s) answered 304 Not Modified and kept the copy stored before`
          : '',
        n(v, 'not_requested') >= 0
          ? `${n(v, 'not_requested')} page(s) not requested and kept the copy stored before: their sitemap ` +
            `lastmod is older than that copy, which the site confirmed ${n(v, 'confirmed_days')} day(s) ago or less`
          : '',
      ]
        .filter((part) => part !== '')
        .join('; ')}`,
    search_feed: (v: Values) =>
      `search service ${n(v, 'service_id')}: ${n(v, 'added')} new, ${n(v, 'updated')} changed, ` +
      `${n(v, 'unchanged')} unchanged, ${n(v, 'removed')} removed, ${n(v, 'skipped')} skipped`,
    search_feed_failed: (v: Values) =>
      `updating search service ${n(v, 'service_id')} failed: ${s(v, 'reason')}`,
    crawled: (v: Values) => `${s(v, 'outcome')}: ${n(v, 'crawled')} URL(s) crawled`,
    artifacts_failed: (v: Values) => `storing the artifacts failed: ${s(v, 'reason')}`,
    cancelled_before_start: (_v: Values) => 'cancelled before it started',
    crawler_failure: (v: Values) => `crawler failure: ${s(v, 'reason')}`,
    storage_failure: (v: Values) => `storage failure: ${s(v, 'reason')}`,
    text: (v: Values) => s(v, 'text'),
  },
  ja: {
    separator: '。',
    seeds_not_fetched: (v: Values) =>
      `シード ${n(v, 'seeds')} 件中 ${n(v, 'not_fetched')} 件を取得できませんでした: ${s(v, 'detail')}`,
    no_seed_fetched: (v: Values) => `シードを 1 件も取得できませんでした: ${s(v, 'detail')}`,
    sitemaps: (v: Values) =>
      `サイトマップ: ${n(v, 'files')} ファイル中 ${n(v, 'read')} ファイルを読み込み、URL ${n(v, 'listed')} 件のうち ` +
      `${n(v, 'added')} 件をクロールに追加` +
      (s(v, 'problems') === '' ? '' : `。問題のあったサイトマップ: ${s(v, 'problems')}`),
    hosts: (v: Values) => `速度を落とした・一時停止した・諦めたホスト ${n(v, 'hosts')} 件: ${s(v, 'detail')}`,
    kept_pages: (v: Values) =>
      `変更なし: ${[
        n(v, 'not_modified') >= 0
          ? `${n(v, 'not_modified')} ページが 304 Not Modified を返し、以前に保存した内容を維持`
          : '',
        n(v, 'not_requested') >= 0
          ? `${n(v, 'not_requested')} ページはサイトマップの lastmod が保存済みの内容より古いためリクエストせずに維持` +
            `（サイトが ${n(v, 'confirmed_days')} 日以内に確認済み）`
          : '',
      ]
        .filter((part) => part !== '')
        .join('、')}`,
    search_feed: (v: Values) =>
      `検索サービス ${n(v, 'service_id')}: 新規 ${n(v, 'added')} 件、変更 ${n(v, 'updated')} 件、` +
      `変更なし ${n(v, 'unchanged')} 件、削除 ${n(v, 'removed')} 件、スキップ ${n(v, 'skipped')} 件`,
    search_feed_failed: (v: Values) =>
      `検索サービス ${n(v, 'service_id')} の更新に失敗しました: ${s(v, 'reason')}`,
    crawled: (v: Values) =>
      `${OUTCOMES_JA[s(v, 'outcome')] ?? s(v, 'outcome')}: ${n(v, 'crawled')} 件の URL をクロール`,
    artifacts_failed: (v: Values) => `成果物の保存に失敗しました: ${s(v, 'reason')}`,
    cancelled_before_start: (_v: Values) => '開始前にキャンセルされました',
    crawler_failure: (v: Values) => `クローラーの障害: ${s(v, 'reason')}`,
    storage_failure: (v: Values) => `ストレージの障害: ${s(v, 'reason')}`,
    text: (v: Values) => s(v, 'text'),
  },
});
