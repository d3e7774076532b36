/**
 * The starter set (docs/reference/site-search.md, Synonyms): two-way groups a Japanese or English
 * IT documentation site commonly needs, turned on per search service with
 * `synonyms.starter_set`. Katakana spellings with and without the long vowel mark (JIS Z 8301
 * and the older JIS Z 8101 style both occur on one site), katakana loanwords and their kanji
 * counterparts, and English spellings and abbreviations. Kept small and unambiguous: a pair that
 * means different things on different sites (ポート/港) does not belong here.
 */
export const STARTER_SYNONYM_GROUPS: readonly (readonly string[])[] = [
  // Katakana and kanji for one concept.
  ['仮想ホスト', 'バーチャルホスト', 'virtual host'],
  ['ログイン', 'サインイン', 'ログオン'],
  ['ログアウト', 'サインアウト', 'ログオフ'],
  ['ディレクトリ', 'フォルダ', 'フォルダー'],
  ['設定ファイル', 'コンフィグファイル', '構成ファイル'],
  ['電子メール', 'メール', 'eメール', 'e-mail', 'email'],
  ['問い合わせ', '問合せ', 'お問い合わせ', 'お問合せ'],
  ['申し込み', '申込み', '申込'],
  ['データベース', 'DB', 'database'],
  ['正規表現', 'regex', 'regexp', 'regular expression'],
  ['環境変数', 'environment variable'],
  ['ウェブサイト', 'webサイト', 'ホームページ', 'website'],
  ['ウェブ', 'web'],
  // Long vowel mark at the end of a katakana word: written with and without.
  ['ユーザー', 'ユーザ'],
  ['サーバー', 'サーバ'],
  ['ブラウザー', 'ブラウザ'],
  ['フォルダー', 'フォルダ'],
  ['プリンター', 'プリンタ'],
  ['コンピューター', 'コンピュータ'],
  ['メモリー', 'メモリ'],
  ['ディレクトリー', 'ディレクトリ'],
  ['パラメーター', 'パラメータ'],
  ['インターフェース', 'インタフェース', 'インターフェイス', 'インタフェイス'],
  ['プロキシ', 'プロキシー', 'プロクシ', 'proxy'],
  ['アダプター', 'アダプタ'],
  ['ファイアウォール', 'ファイヤーウォール', 'firewall'],
  ['セキュリティ', 'セキュリティー'],
  ['プロパティ', 'プロパティー'],
  ['バージョン', 'ヴァージョン', 'version'],
  ['ドキュメント', 'ドキュメンテーション', '文書'],
  // English spellings and abbreviations.
  ['log in', 'login', 'sign in', 'signin'],
  ['log out', 'logout', 'sign out', 'signout'],
  ['username', 'user name'],
  ['filename', 'file name'],
  ['set up', 'setup'],
  ['config', 'configuration'],
  ['directory', 'folder'],
  ['url', 'uri'],
  ['ssl', 'tls'],
  ['postgresql', 'postgres'],
  ['javascript', 'js', 'ecmascript'],
  ['kubernetes', 'k8s'],
  ['internationalization', 'i18n'],
  ['localization', 'l10n'],
  ['authentication', 'authn'],
  ['authorization', 'authz'],
  ['2fa', 'two-factor authentication', 'mfa', 'multi-factor authentication'],
  ['cli', 'command line', 'command-line interface'],
  ['dns', 'domain name system'],
];
