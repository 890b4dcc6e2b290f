// The Japanese texts (the console's language, and the mails of users whose language is JP).
// en.ts has the same keys (its type is this object's); screens move their strings here as
// they are touched. Texts that take values are functions of those values.

/** The values of the temporary password mail. */
export interface PasswordMailFacts {
  userName: string;
  loginId: string;
  password: string;
  /** YYYY/MM/DD HH:mm, Japan time. */
  validUntil: string;
}

export const ja = {
  /** 000 §8: a sensor alert at status 1 (guard time running), and the confirmed (status 2) wording of temperature alerts. */
  alerts: {
    OE00000001: '上限温度超過',
    OE00000002: '下限温度超過',
    OE00000003: '電池残量低下',
    OE00000004: 'センサ異常（温度が取得できません）',
    OE00000005: '長時間通信がありません',
    OE00000006: 'ゲートウェイのバッファ残量低下（データ欠損のおそれ）',
    OE00000007: 'ゲートウェイのバッファあふれ（データ欠損）',
  },
  confirmedAlerts: {
    OE00000001: '温度異常（上限超過）',
    OE00000002: '温度異常（下限超過）',
  },
  gatewayDown: 'ゲートウェイと長時間通信がありません',
  noAlert: '現在警報はありません',
  /** A temperature alert's value when the time constant damped it (decision 278): what was checked, then the reading. */
  simulatedValue: (simulated: string, measured: string) => `推定品温 ${simulated}（実測 ${measured}）`,

  alertMail: {
    kinds: { open: '警報発生', renotify: '警報継続（再通知）', recover: '警報復旧' },
    subjectPrefix: '[On-Reco]',
    store: '店舗:     ',
    sensor: 'センサ:   ',
    temperature: '温度:     ',
    limits: '上下限値: ',
    time: (at: string) => `日時:     ${at}`,
    graph: '温度グラフ: ',
    footer: 'このメールは On-Reco から自動送信されています。',
    lost: (count: number) => `欠損件数: ${count}件`,
    opened: (at: string) => `発生日時: ${at}`,
    lasted: (duration: string) => `継続時間: ${duration}`,
    duration: (hours: number, minutes: number) => (hours > 0 ? `${hours}時間${minutes}分` : `${minutes}分`),
  },

  temporaryPasswordMail: (f: PasswordMailFacts) => ({
    subject: '【On-Reco】仮パスワードの発行',
    text: `${f.userName} 様\n\nOn-Reco アカウント（${f.loginId}）の仮パスワードを発行しました。\n\n  仮パスワード: ${f.password}\n  有効期限: ${f.validUntil}\n\nこの仮パスワードでログインし、パスワードを変更して下さい。\nお心当たりのない場合はこのメールを破棄して下さい。現在のパスワードは変更されていません。\n`,
  }),

  /** Store status (000 §3): the dashboard's icon titles. */
  storeStatus: { 0: '未接続', 1: '停止中', 2: '稼働中', 3: '警報発生中' } as Record<number, string>,
  /** Store working state (001 §3); `null` when the store has none. */
  workingState: { null: '稼働情報なし', 0: '初回通信待ち', 1: '稼働中', 2: '撤去' } as Record<string, string>,

  buttons: {
    close: '閉じる',
    cancel: 'キャンセル',
    save: '保存',
    ok: 'OK',
  },
  discardDialog: {
    title: '変更を破棄しますか？',
    message: '編集中のデータは保存されません。',
    keepEditing: '編集を続ける',
    discard: 'データを破棄',
  },
  /** After a new store is saved (issue 33 item 7): what is left before it records temperatures. */
  storeCreated: {
    title: '店舗を登録しました',
    message: (storeName: string) => `「${storeName}」を登録しました。温度を記録するには、続けて次の設定を行ってください。`,
    steps: '次の設定',
    gateway: 'ゲートウェイを設置し、PINコードで店舗に登録する',
    gatewayLink: '店舗管理でPINコードを発行する',
    sensors: 'センサを登録する',
    sensorsLink: '設定のセンサ情報で登録する',
    byStaff: '管理者・保守担当が行います。',
    toStore: '温度画面へ',
  },
  /** A list page's count (001 §2: the total, and the rows shown from N to M). */
  listTotal: (total: number) => `全${total}件`,
  listRange: (first: number, last: number) => `${first}〜${last}件を表示`,
  staleReading: { label: (age: string) => `${age}の値`, hint: '最終測定から通信なしの判定時間を過ぎています。現在の温度ではありません。' },
  skipToContent: '本文へ移動',
  /** The names of the pagination landmarks: two on one page must differ (WCAG landmark-unique). */
  pagination: { label: 'ページ', above: 'ページ（一覧の上）', below: 'ページ（一覧の下）' },
  /** An empty search result (001 §2). */
  noSearchResults: '該当する検索結果はありません',

  /** A live screen whose refresh fails keeps its last data, with this mark (the time it was loaded). */
  liveData: {
    staleSince: (time: string) => `${time} 以降更新できていません`,
    retrying: 'サーバーに接続できません。自動で再接続を試みています。',
  },
  /** A page whose data could not be loaded: the header (and a store's sidebar) stay around it. */
  pageError: {
    title: 'エラーが発生しました',
    retryLater: 'しばらくしてから再度お試し下さい。',
    forbidden: 'この画面を表示する権限がありません',
    forbiddenHint: '権限のあるユーザーでログインして下さい。',
    retry: '再読み込み',
  },
  /** A new user's welcome mail (issue 13): their login id and a temporary password, as the forgotten-password mail has. */
  /** To a user's previous address when someone else changed it (decision 241). */
  mailChangedMail: (f: { userName: string; loginId: string; newAddress: string; changedBy: string; changedAt: string }) => ({
    subject: '【On-Reco】メールアドレス変更のお知らせ',
    text: `${f.userName} 様\n\nOn-Reco アカウント（${f.loginId}）のメールアドレスが ${f.changedBy} により変更されました。\n\n  新しいアドレス: ${f.newAddress}\n  変更日時: ${f.changedAt}\n\nお心当たりのない場合は、至急管理者に連絡して下さい。\n`,
  }),
  welcomeMail: (f: PasswordMailFacts & { loginUrl: string }) => ({
    subject: '【On-Reco】アカウント登録のお知らせ',
    text: `${f.userName} 様\n\nOn-Reco のアカウントが登録されました。\n\n  ログインID: ${f.loginId}\n  仮パスワード: ${f.password}\n  有効期限: ${f.validUntil}\n\n${f.loginUrl} からこの仮パスワードでログインし、パスワードを変更して下さい。\n期限を過ぎた場合はログイン画面の「パスワードを忘れた方」から仮パスワードを再発行できます。\n`,
  }),
};

export type Texts = typeof ja;
