/** The texts of the webhooks page. */
import { defineTexts } from '../i18n.js';

export const webhooksTexts = defineTexts({
  en: {
    title: 'Webhooks',
    intro:
      'Kumo POSTs crawl.started and crawl.finished events of this service group to each webhook, signed with its secret (HMAC-SHA256).',
    create: 'Add webhook',
    url: 'URL',
    urlHint: 'An absolute http:// or https:// address that answers 2xx.',
    secret: 'Signing secret',
    secretHint: '16 to 256 characters. Keep a copy: it is never shown again.',
    generate: 'Generate a secret',
    created: 'Added',
    remove: 'Delete',
    removeTitle: 'Delete this webhook?',
    removeMessage: (url: string) => `Kumo stops sending events to ${url}. Its deliveries are deleted too.`,
    deliveries: 'Deliveries',
    showDeliveries: (url: string) => `Deliveries of ${url}`,
    hideDeliveries: 'Hide deliveries',
    noDeliveries: 'No delivery yet: events are sent when a run starts and ends.',
    event: 'Event',
    state: 'State',
    attempts: 'Attempts',
    statusCode: 'Response',
    lastError: 'Last error',
    queued: 'Queued',
    delivered: 'Delivered',
    nextAttempt: 'Next attempt',
    replay: 'Send again',
    replayed: 'Queued to be sent again now.',
    pending: 'Pending',
    deliveredState: 'Delivered',
    failed: 'Failed',
    empty: 'This service group has no webhook.',
    ownersOnly: 'Only owners add and delete webhooks and send deliveries again.',
  },
  ja: {
    title: 'Webhook',
    intro:
      'Kumo はこのサービスグループの crawl.started と crawl.finished イベントを各 Webhook に POST します（シークレットで HMAC-SHA256 署名）。',
    create: 'Webhook を追加',
    url: 'URL',
    urlHint: '2xx を返す http:// または https:// の絶対アドレス。',
    secret: '署名シークレット',
    secretHint: '16〜256 文字。二度と表示されないので控えておいてください。',
    generate: 'シークレットを生成',
    created: '追加日時',
    remove: '削除',
    removeTitle: 'この Webhook を削除しますか？',
    removeMessage: (url: string) => `${url} へのイベント送信を停止します。配信履歴も削除されます。`,
    deliveries: '配信',
    showDeliveries: (url: string) => `${url} の配信`,
    hideDeliveries: '配信を閉じる',
    noDeliveries: 'まだ配信はありません。実行の開始時と終了時にイベントが送られます。',
    event: 'イベント',
    state: '状態',
    attempts: '試行回数',
    statusCode: '応答',
    lastError: '最後のエラー',
    queued: 'キュー投入',
    delivered: '配信完了',
    nextAttempt: '次の試行',
    replay: '再送',
    replayed: '今すぐ再送するようキューに入れました。',
    pending: '保留中',
    deliveredState: '配信済み',
    failed: '失敗',
    empty: 'このサービスグループには Webhook がありません。',
    ownersOnly: 'Webhook の追加・削除と再送はオーナーだけが行えます。',
  },
});

/** The name of a delivery state in the current language. */
export function stateName(state: 'pending' | 'delivered' | 'failed'): string {
  const t = webhooksTexts();
  return state === 'pending' ? t.pending : state === 'delivered' ? t.deliveredState : t.failed;
}
