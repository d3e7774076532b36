/** The texts of the API keys page. */
import { defineTexts } from '../i18n.js';

export const keysTexts = defineTexts({
  en: {
    title: 'API keys',
    intro:
      'Programs send a key in the x-mf-apikey header to call the instant crawl API of this service group.',
    create: 'Create API key',
    label: 'Label',
    labelHint: 'What the key is for, e.g. "nightly import". Up to 200 characters.',
    prefix: 'Key starts with',
    created: 'Created',
    lastUsed: 'Last used',
    neverUsed: 'Never',
    state: 'State',
    active: 'Active',
    revoked: (at: string) => `Revoked ${at}`,
    revoke: 'Revoke',
    revokeTitle: 'Revoke this API key?',
    revokeMessage: (label: string) =>
      `Programs using the key "${label}" will be refused from now on. This cannot be undone.`,
    newKey: 'Your new API key',
    newKeyWarning: 'Copy it now: it is shown only this once. Kumo keeps only a hash of it.',
    copy: 'Copy',
    copied: 'Copied',
    done: 'I have saved the key',
    empty: 'This service group has no API key yet.',
    emptyOwner: 'Create one for each program that calls the API, so you can revoke one without the others.',
    unlabelled: '(no label)',
    ownersOnly: 'Only owners create and revoke keys.',
  },
  ja: {
    title: 'API キー',
    intro:
      'プログラムは x-mf-apikey ヘッダーでキーを送り、このサービスグループのインスタントクロール API を呼び出します。',
    create: 'API キーを作成',
    label: 'ラベル',
    labelHint: 'キーの用途（例:「夜間インポート」）。200 文字まで。',
    prefix: 'キーの先頭',
    created: '作成日時',
    lastUsed: '最終使用',
    neverUsed: '未使用',
    state: '状態',
    active: '有効',
    revoked: (at: string) => `${at} に無効化`,
    revoke: '無効化',
    revokeTitle: 'この API キーを無効化しますか？',
    revokeMessage: (label: string) =>
      `キー「${label}」を使うプログラムは今後拒否されます。この操作は取り消せません。`,
    newKey: '新しい API キー',
    newKeyWarning:
      '今すぐコピーしてください。表示されるのはこの一度だけです。Kumo はハッシュしか保存しません。',
    copy: 'コピー',
    copied: 'コピーしました',
    done: 'キーを保存しました',
    empty: 'このサービスグループにはまだ API キーがありません。',
    emptyOwner: 'API を呼び出すプログラムごとに作成すると、ほかに影響せず 1 つだけ無効化できます。',
    unlabelled: '（ラベルなし）',
    ownersOnly: 'キーの作成と無効化はオーナーだけが行えます。',
  },
});
