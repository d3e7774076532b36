/**
 * Word lists of the search benchmark's corpus, most frequent first: the order is the Zipf rank
 * (search-vocabulary.ts). English: function words, then content words and a few set phrases of a
 * corporate / documentation site; the long tail is generated. Japanese: real words of such a site
 * (kanji compounds, katakana loanwords, place names), with the particles and verb endings that
 * join them into sentences.
 */

const words = (text: string) => text.trim().split(/\s+/);

/** The most frequent English words, in rough frequency order. */
export const ENGLISH_FUNCTION_WORDS = words(`
  the of and to a in is for that on with as it be are by this from or at an was have not can
  you your we our will all more which their has but they its one about also new if may other when
  these out use any been there so up what than into how only who some time would should most such
  each very do no two first after over like just where many well make year between both
  through must then used under while however without before three because during same every since
  within those back against including another further around among here still much however
`).filter((word, index, all) => all.indexOf(word) === index);

/**
 * Content words of a corporate / documentation site, in rough frequency order. Entries with a
 * space are set phrases emitted as one unit, so quoted-phrase queries find real adjacency.
 */
export const ENGLISH_CONTENT_WORDS = [
  ...words(`
  information service site page data product search support customer system user company business
  report market news update price management design research online web content access contact
  network software security policy privacy development application quality project program
  community health education travel weather finance energy history culture science library
  document index engine crawler browser render server client request response archive link query
  result help guide account order shipping payment team event press release career job
  technology solution platform cloud storage performance experience community industry global
  local city international national public private office store shop mobile email phone address
  free open source real time member group partner resource service download file image video
  audio music book article story blog post comment review rating feature option setting version
  release note change issue problem question answer topic category section list table chart map
  `),
  'search engine',
  'customer support',
  'privacy policy',
  ...words(`
  area region country state world government law rule standard process method model analysis
  test result value level rate cost budget plan strategy goal target growth sales revenue profit
  investor annual quarter month week today tomorrow morning evening night season spring summer
  autumn winter forecast temperature rain snow wind cloud sunny storm climate environment nature
  water air earth forest river mountain ocean island beach park garden museum temple shrine castle
  station airport hotel restaurant cafe food drink recipe menu kitchen home family child parent
  school university student teacher course class lesson training workshop seminar conference
  `),
  'open source',
  'user guide',
  'annual report',
  ...words(`
  meeting schedule calendar ticket booking reservation registration login password profile
  dashboard analytics metric monitor alert notification message chat forum wiki manual tutorial
  example sample template theme layout style color font icon logo brand identity marketing
  advertising campaign promotion discount coupon offer deal gift card credit debit bank loan
  insurance tax invoice receipt refund return warranty repair maintenance installation
  configuration integration migration backup recovery disaster incident outage status uptime
  latency throughput bandwidth traffic visitor session cookie tracking consent compliance audit
  certificate encryption authentication authorization permission role admin administrator
  operator developer engineer designer manager director president founder employee staff
  volunteer donation charity foundation sponsor award prize winner competition tournament match
  game sport team player coach stadium fitness wellness medicine hospital clinic doctor nurse
  patient treatment therapy vaccine research laboratory experiment discovery innovation patent
  invention prototype hardware device sensor camera capture tool screen display monitor keyboard
  printer scanner battery charger cable adapter router switch firewall gateway proxy cache
  `),
  'data center',
  'machine learning',
  'real estate',
  'press room',
  ...words(`
  database query table column record field schema migration cluster node replica shard partition
  queue stream event pipeline workflow automation robot artificial intelligence learning neural
  language translation dictionary glossary reference specification protocol format encoding
  parser compiler runtime library framework plugin extension module package dependency registry
  repository branch commit merge deploy deployment container image kernel driver firmware
  bootloader filesystem directory folder path archive compression snapshot restore rollback
  finance economy inflation currency exchange stock bond fund asset portfolio dividend
  agriculture farming harvest rice wheat vegetable fruit apple orange tea coffee chocolate bakery
  fashion clothing shoes bag jewelry watch furniture interior architecture building construction
  bridge tunnel railway train subway bus taxi bicycle car truck ship flight passport visa
  tourism sightseeing festival ceremony tradition heritage craft pottery painting sculpture
  photography cinema theater concert orchestra opera dance literature poetry novel author
  publisher magazine newspaper journalist broadcast radio television channel episode series
  `),
];

/** Misspellings the corpus must not contain (did-you-mean queries rely on them being unknown). */
export const ENGLISH_TYPOS = ['serch', 'custmer', 'wether', 'secruity'];

/**
 * Japanese content words, in rough frequency order: kanji compounds, katakana loanwords, place
 * names. Compounds of listed words (検索エンジン, 天気予報) are entries of their own, as a page uses
 * them.
 */
export const JAPANESE_WORDS = words(`
  情報 サービス 検索 サイト ページ お客様 製品 会社 データ システム 利用 提供 機能 案内 確認
  お問い合わせ 東京 会員 登録 開発 エンジン 対応 管理 設定 画面 表示 天気 最新 記事 方法
  東京都 検索エンジン 大阪 京都 予報 天気予報 ニュース ツール キャプチャ 画像 動画 写真 資料
  ダウンロード ソフトウェア アプリ ウェブ インターネット ネットワーク セキュリティ サーバー
  クラウド ストレージ バックアップ 地域 全国 世界 日本 海外 企業 事業 業界 市場 価格 料金 費用
  商品 販売 購入 注文 配送 支払い 返品 保証 修理 サポート 窓口 店舗 営業 時間 休業日 年末年始
  イベント セミナー 講演 展示会 説明会 募集 採用 社員 求人 応募 研修 教育 学校 大学 学生 研究
  技術 科学 環境 エネルギー 社会 経済 金融 株式 投資 決算 報告 発表 計画 戦略 目標 成長 改善
  品質 安全 健康 医療 病院 薬 食品 料理 レシピ 旅行 観光 ホテル 旅館 温泉 交通 鉄道 電車 駅
  空港 地図 アクセス 駐車場 住所 電話 メール フォーム 申し込み 予約 キャンセル 変更 手続き
  書類 申請 証明書 規約 個人情報 プライバシー ポリシー 著作権 ライセンス 利用規約 よくある質問
  ヘルプ マニュアル ガイド チュートリアル バージョン 更新 リリース ノート 不具合 修正 障害
  メンテナンス 停止 復旧 状況 お知らせ 新着 一覧 詳細 概要 特徴 比較 選び方 使い方 導入 事例
  効果 結果 分析 統計 調査 アンケート 評価 レビュー 口コミ ランキング 人気 おすすめ 特集 季節
  春 夏 秋 冬 桜 紅葉 雪 雨 晴れ 曇り 気温 湿度 台風 地震 防災 災害 避難 北海道 沖縄 名古屋
  横浜 神戸 福岡 札幌 仙台 広島 奈良 鎌倉 富士山 神社 寺院 城 庭園 美術館 博物館 図書館 公園
  祭り 花火 伝統 文化 歴史 芸術 音楽 映画 演劇 文学 小説 漫画 アニメ ゲーム スポーツ 野球
  サッカー 試合 大会 選手 監督 チーム トレーニング フィットネス ファッション デザイン ブランド
  インテリア 家具 住宅 不動産 建築 工事 自動車 電気 電池 充電 カメラ スマートフォン パソコン
  プリンター キーボード モニター ディスプレイ ケーブル ルーター ファイル フォルダ パスワード
  アカウント ログイン プロフィール ダッシュボード レポート グラフ 表 クラウドサービス
  人工知能 機械学習 翻訳 辞書 言語 文字 日本語 英語 中国語 索引 収集 分類 抽出 変換 圧縮
  暗号化 認証 権限 管理者 開発者 担当者 責任者 代表 社長 役員 株主 取引先 パートナー 協力
  地域社会 貢献 寄付 ボランティア 持続可能 脱炭素 再生可能 太陽光 風力 水素 農業 漁業 林業
  米 野菜 果物 お茶 コーヒー 和菓子 弁当 ラーメン 寿司 天ぷら 蕎麦 うどん 居酒屋 喫茶店
`).filter((word, index, all) => all.indexOf(word) === index);

/** Particles that follow a noun phrase, with their relative weights. */
export const JAPANESE_PARTICLES: readonly (readonly [string, number])[] = [
  ['の', 30],
  ['は', 14],
  ['を', 16],
  ['に', 12],
  ['で', 9],
  ['が', 10],
  ['と', 6],
  ['から', 3],
  ['まで', 2],
  ['も', 3],
  ['について', 3],
  ['による', 1],
  ['として', 1],
];

/** Predicates that end a sentence (before 。), with their relative weights. */
export const JAPANESE_ENDINGS: readonly (readonly [string, number])[] = [
  ['します', 20],
  ['できます', 12],
  ['しています', 10],
  ['です', 14],
  ['ご覧ください', 5],
  ['お知らせします', 5],
  ['ご案内します', 4],
  ['紹介します', 5],
  ['行います', 4],
  ['されました', 4],
  ['しました', 5],
  ['になります', 4],
  ['ありません', 2],
  ['予定です', 3],
  ['確認してください', 3],
  ['を開催します', 2],
  ['が必要です', 2],
  ['をご利用いただけます', 2],
];

/** Terms that occur in about one document in a thousand each. */
export const RARE_ENGLISH = ['zephyrine', 'quillwort', 'marmoreal'];
export const RARE_JAPANESE = ['蒼穹', '瑠璃色', '陽炎'];
