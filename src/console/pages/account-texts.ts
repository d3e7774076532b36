/** The texts of signing in, accepting an invitation and the account page. */
import { defineTexts } from '../i18n.js';

export const accountTexts = defineTexts({
  en: {
    signInTitle: 'Sign in to Kumo',
    email: 'Email address',
    password: 'Password',
    signIn: 'Sign in',
    signingIn: 'Signing in…',
    invitationTitle: 'Accept your invitation',
    invitationIntro: 'Choose the password of your new Kumo account.',
    newPassword: 'New password',
    passwordHint: '12 to 1,024 characters. A long phrase is easier to remember and harder to guess.',
    repeatPassword: 'Repeat the password',
    passwordsDiffer: 'The two passwords are not the same.',
    createAccount: 'Create my account',
    noToken:
      'This invitation link is incomplete. Open the whole link from the invitation, or ask for a new one.',
    accepted: (email: string) => `Your account ${email} is ready. Sign in with your new password.`,
    accountTitle: 'Your account',
    role: 'Role',
    roles:
      'viewer: reads everything · editor: also settings, runs and search · owner: also users, keys and webhooks',
    changePassword: 'Change password',
    currentPassword: 'Current password',
    savePassword: 'Change password',
    passwordChanged: (revoked: number) =>
      revoked === 0
        ? 'Your password is changed.'
        : `Your password is changed; ${revoked} other session(s) were signed out.`,
    sessions: 'Signed-in sessions',
    sessionStarted: 'Signed in',
    sessionLastSeen: 'Last used',
    sessionEnds: 'Ends',
    sessionBrowser: 'Browser',
    sessionAddress: 'Address',
    thisSession: 'This session',
    endSession: 'Sign out this session',
    language: 'Language',
  },
  ja: {
    signInTitle: 'Kumo にサインイン',
    email: 'メールアドレス',
    password: 'パスワード',
    signIn: 'サインイン',
    signingIn: 'サインインしています…',
    invitationTitle: '招待を受ける',
    invitationIntro: '新しい Kumo アカウントのパスワードを決めてください。',
    newPassword: '新しいパスワード',
    passwordHint: '12〜1,024 文字。長いフレーズは覚えやすく、推測されにくくなります。',
    repeatPassword: 'パスワードをもう一度',
    passwordsDiffer: '2 つのパスワードが一致しません。',
    createAccount: 'アカウントを作成',
    noToken: 'この招待リンクは不完全です。招待のリンク全体を開くか、新しい招待を依頼してください。',
    accepted: (email: string) =>
      `アカウント ${email} を作成しました。新しいパスワードでサインインしてください。`,
    accountTitle: 'アカウント',
    role: 'ロール',
    roles: 'viewer: すべてを閲覧 · editor: 設定・実行・検索も変更 · owner: ユーザー・キー・Webhook も管理',
    changePassword: 'パスワードの変更',
    currentPassword: '現在のパスワード',
    savePassword: 'パスワードを変更',
    passwordChanged: (revoked: number) =>
      revoked === 0
        ? 'パスワードを変更しました。'
        : `パスワードを変更しました。ほかの ${revoked} 個のセッションはサインアウトしました。`,
    sessions: 'サインイン中のセッション',
    sessionStarted: 'サインイン',
    sessionLastSeen: '最終利用',
    sessionEnds: '終了予定',
    sessionBrowser: 'ブラウザ',
    sessionAddress: 'アドレス',
    thisSession: 'このセッション',
    endSession: 'このセッションをサインアウト',
    language: '言語',
  },
});
