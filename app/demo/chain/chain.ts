import type { StoreFormat } from './furniture';

// The demo chain's people and places: two companies (a convenience-store chain and a
// supermarket chain, both invented), their areas, 67 stores in 31 prefectures with plausible
// addresses, user groups for every authority, the five demo logins and a staff of Japanese
// (and a few English-speaking) users, and the notices on the dashboard. Plain data: plan.ts
// turns it into rows, times and states.

export interface DemoCompany {
  companyId: string;
  companyName: string; // at most 20 characters
  format: StoreFormat;
  brand: string; // the store-name prefix
  storeNoPrefix: string;
  storeIdPrefix: string;
}

export const COMPANIES: readonly DemoCompany[] = [
  { companyId: 'ONRECO', companyName: '株式会社オンレコマート', format: 'convenience', brand: 'オンレコマート', storeNoPrefix: '1', storeIdPrefix: 'ORM' },
  { companyId: 'MARUYA', companyName: 'まるやマーケット株式会社', format: 'supermarket', brand: 'まるやマーケット', storeNoPrefix: '2', storeIdPrefix: 'MRY' },
];

export interface DemoStoregroup {
  storegroupId: string; // at most 5 characters
  companyId: string;
  storegroupName: string;
}

export const STOREGROUPS: readonly DemoStoregroup[] = [
  { storegroupId: 'OR01', companyId: 'ONRECO', storegroupName: '北海道・東北エリア' },
  { storegroupId: 'OR02', companyId: 'ONRECO', storegroupName: '首都圏エリア' },
  { storegroupId: 'OR03', companyId: 'ONRECO', storegroupName: '中部・北陸エリア' },
  { storegroupId: 'OR04', companyId: 'ONRECO', storegroupName: '関西エリア' },
  { storegroupId: 'OR05', companyId: 'ONRECO', storegroupName: '九州・沖縄エリア' },
  { storegroupId: 'MY01', companyId: 'MARUYA', storegroupName: '関東エリア' },
  { storegroupId: 'MY02', companyId: 'MARUYA', storegroupName: '東海エリア' },
  { storegroupId: 'MY03', companyId: 'MARUYA', storegroupName: '近畿エリア' },
  { storegroupId: 'MY04', companyId: 'MARUYA', storegroupName: '中国・四国エリア' },
];

/** The part a store plays in the demo (plan.ts gives each its readings, incidents and state). */
export type StoreRole =
  | 'normal'
  | 'storeUserHome' // the storeuser login's store: diagram, an ongoing upper-limit alarm
  | 'ongoingStopped' // an ongoing freezer alarm that a manager stopped
  | 'ongoingLower' // a case too cold right now, plus a sensor whose guard time runs (status 1)
  | 'lowBattery'
  | 'errorReadings' // a sensor that sent error readings for a while (recovered)
  | 'silentSensor' // a sensor silent for the last 3 hours
  | 'gap' // a sensor with a 100-minute hole yesterday (no communication, recovered)
  | 'freezerFailure' // a freezer that failed for 2 hours 3 days ago
  | 'chilledExcursion' // a chilled case above its limit for about 40 minutes yesterday
  | 'gatewayDown' // operating, but the gateway has been silent for 5 hours
  | 'maintenance' // a store-wide maintenance window 2 days ago (excursion, no alert)
  | 'waiting' // working_state 0
  | 'removed' // working_state 2
  | 'noState'; // working_state null

export interface DemoLocation {
  companyId: string;
  storegroupId: string;
  prefectureId: number;
  regionId: number;
  branch: string; // the store name after the brand
  address: string; // the full address, prefecture first
  areaCode: string; // the tel prefix
  role?: StoreRole;
  diagram?: boolean;
  /** Alert history of the last month runs to several pages. */
  busy?: boolean;
  closingInDays?: number;
}

const L = (
  companyId: string, storegroupId: string, prefectureId: number, regionId: number, branch: string, address: string, areaCode: string,
  extra: Partial<DemoLocation> = {},
): DemoLocation => ({ companyId, storegroupId, prefectureId, regionId, branch, address, areaCode, ...extra });

export const LOCATIONS: readonly DemoLocation[] = [
  // オンレコマート (convenience)
  L('ONRECO', 'OR01', 1, 1, '札幌大通店', '北海道札幌市中央区大通西4丁目6-1', '011', { role: 'gap', diagram: true }),
  L('ONRECO', 'OR01', 1, 1, 'すすきの南店', '北海道札幌市中央区南5条西3丁目8-2', '011'),
  L('ONRECO', 'OR01', 1, 1, '旭川買物公園店', '北海道旭川市1条通8丁目108-3', '0166', { role: 'removed' }),
  L('ONRECO', 'OR01', 4, 2, '仙台一番町店', '宮城県仙台市青葉区一番町3丁目7-11', '022', { diagram: true }),
  L('ONRECO', 'OR01', 2, 2, '青森新町店', '青森県青森市新町1丁目9-13', '017'),
  L('ONRECO', 'OR01', 3, 2, '盛岡大通店', '岩手県盛岡市大通2丁目4-22', '019'),
  L('ONRECO', 'OR01', 7, 2, '郡山駅前店', '福島県郡山市駅前1丁目15-6', '024'),
  L('ONRECO', 'OR02', 13, 3, '新宿西口店', '東京都新宿区西新宿1丁目12-3', '03', { role: 'storeUserHome', diagram: true, busy: true }),
  L('ONRECO', 'OR02', 13, 3, '渋谷道玄坂店', '東京都渋谷区道玄坂2丁目6-11', '03', { role: 'chilledExcursion', diagram: true }),
  L('ONRECO', 'OR02', 13, 3, '池袋東口店', '東京都豊島区南池袋1丁目25-8', '03'),
  L('ONRECO', 'OR02', 13, 3, '上野広小路店', '東京都台東区上野3丁目21-5', '03'),
  L('ONRECO', 'OR02', 13, 3, '品川港南店', '東京都港区港南2丁目4-15', '03'),
  L('ONRECO', 'OR02', 13, 3, '吉祥寺駅前店', '東京都武蔵野市吉祥寺本町1丁目10-7', '0422'),
  L('ONRECO', 'OR02', 13, 3, '八王子旭町店', '東京都八王子市旭町9-1', '042', { role: 'waiting' }),
  L('ONRECO', 'OR02', 14, 3, '横浜西口店', '神奈川県横浜市西区南幸2丁目15-4', '045', { diagram: true }),
  L('ONRECO', 'OR02', 14, 3, '川崎駅東口店', '神奈川県川崎市川崎区駅前本町11-2', '044'),
  L('ONRECO', 'OR02', 14, 3, '藤沢南口店', '神奈川県藤沢市南藤沢21-3', '0466'),
  L('ONRECO', 'OR02', 11, 3, '大宮桜木町店', '埼玉県さいたま市大宮区桜木町1丁目7-5', '048'),
  L('ONRECO', 'OR02', 11, 3, '川越新富町店', '埼玉県川越市新富町2丁目4-1', '049'),
  L('ONRECO', 'OR02', 12, 3, '千葉中央店', '千葉県千葉市中央区富士見2丁目3-1', '043'),
  L('ONRECO', 'OR02', 12, 3, '船橋本町店', '千葉県船橋市本町4丁目41-19', '047'),
  L('ONRECO', 'OR02', 8, 3, '水戸駅南店', '茨城県水戸市城南1丁目2-43', '029'),
  L('ONRECO', 'OR02', 9, 3, '宇都宮大通り店', '栃木県宇都宮市馬場通り2丁目3-12', '028'),
  L('ONRECO', 'OR02', 10, 3, '高崎駅西口店', '群馬県高崎市八島町20-1', '027'),
  L('ONRECO', 'OR03', 23, 4, '名古屋栄店', '愛知県名古屋市中区栄3丁目5-12', '052', { role: 'errorReadings', diagram: true }),
  L('ONRECO', 'OR03', 23, 4, '名駅西口店', '愛知県名古屋市中村区椿町6-9', '052'),
  L('ONRECO', 'OR03', 22, 4, '静岡紺屋町店', '静岡県静岡市葵区紺屋町5-8', '054'),
  L('ONRECO', 'OR03', 22, 4, '浜松駅北口店', '静岡県浜松市中央区砂山町322-1', '053'),
  L('ONRECO', 'OR03', 15, 4, '新潟万代店', '新潟県新潟市中央区万代1丁目3-30', '025'),
  L('ONRECO', 'OR03', 20, 4, '長野駅前店', '長野県長野市南千歳1丁目16-3', '026'),
  L('ONRECO', 'OR03', 17, 4, '金沢香林坊店', '石川県金沢市香林坊2丁目1-1', '076', { role: 'waiting' }),
  L('ONRECO', 'OR04', 27, 5, '梅田茶屋町店', '大阪府大阪市北区茶屋町8-26', '06', { role: 'ongoingLower', diagram: true, busy: true }),
  L('ONRECO', 'OR04', 27, 5, 'なんば千日前店', '大阪府大阪市中央区千日前2丁目10-1', '06'),
  L('ONRECO', 'OR04', 27, 5, '天王寺駅前店', '大阪府大阪市阿倍野区阿倍野筋1丁目5-1', '06'),
  L('ONRECO', 'OR04', 26, 5, '京都四条烏丸店', '京都府京都市下京区四条通烏丸東入長刀鉾町20', '075'),
  L('ONRECO', 'OR04', 28, 5, '三宮センター街店', '兵庫県神戸市中央区三宮町1丁目8-1', '078'),
  L('ONRECO', 'OR04', 29, 5, '奈良三条通店', '奈良県奈良市三条町511-3', '0742', { role: 'noState' }),
  L('ONRECO', 'OR05', 40, 8, '博多駅前店', '福岡県福岡市博多区博多駅前2丁目1-1', '092', { role: 'lowBattery', diagram: true, busy: true }),
  L('ONRECO', 'OR05', 40, 8, '天神西通り店', '福岡県福岡市中央区大名2丁目1-35', '092'),
  L('ONRECO', 'OR05', 43, 8, '熊本下通店', '熊本県熊本市中央区下通1丁目3-8', '096'),
  L('ONRECO', 'OR05', 46, 8, '鹿児島天文館店', '鹿児島県鹿児島市東千石町13-10', '099'),
  L('ONRECO', 'OR05', 47, 8, '那覇国際通り店', '沖縄県那覇市松尾2丁目8-19', '098', { role: 'gatewayDown' }),
  // まるやマーケット (supermarket)
  L('MARUYA', 'MY01', 13, 3, '練馬春日町店', '東京都練馬区春日町3丁目12-20', '03', { role: 'ongoingStopped', diagram: true, busy: true }),
  L('MARUYA', 'MY01', 13, 3, '三鷹下連雀店', '東京都三鷹市下連雀4丁目15-33', '0422'),
  L('MARUYA', 'MY01', 13, 3, '町田森野店', '東京都町田市森野1丁目24-13', '042'),
  L('MARUYA', 'MY01', 14, 3, '相模原橋本店', '神奈川県相模原市緑区橋本6丁目2-1', '042'),
  L('MARUYA', 'MY01', 14, 3, '戸塚店', '神奈川県横浜市戸塚区戸塚町16-1', '045'),
  L('MARUYA', 'MY01', 11, 3, '川口本町店', '埼玉県川口市本町4丁目3-2', '048', { diagram: true }),
  L('MARUYA', 'MY01', 11, 3, '所沢日吉町店', '埼玉県所沢市日吉町12-1', '04'),
  L('MARUYA', 'MY01', 12, 3, '柏店', '千葉県柏市柏4丁目8-1', '04'),
  L('MARUYA', 'MY01', 12, 3, '松戸新田店', '千葉県松戸市松戸新田575-1', '047'),
  L('MARUYA', 'MY02', 23, 4, '千種今池店', '愛知県名古屋市千種区今池5丁目1-5', '052', { role: 'maintenance', diagram: true }),
  L('MARUYA', 'MY02', 23, 4, '豊橋駅南店', '愛知県豊橋市花田町西宿1-1', '0532'),
  L('MARUYA', 'MY02', 23, 4, '岡崎康生店', '愛知県岡崎市康生通西2丁目20', '0564'),
  L('MARUYA', 'MY02', 21, 4, '岐阜柳ケ瀬店', '岐阜県岐阜市柳ケ瀬通1丁目12', '058'),
  L('MARUYA', 'MY02', 24, 5, '四日市諏訪店', '三重県四日市市諏訪栄町7-34', '059'),
  L('MARUYA', 'MY03', 27, 5, '豊中服部店', '大阪府豊中市服部元町1丁目6-1', '06', { role: 'silentSensor', diagram: true }),
  L('MARUYA', 'MY03', 27, 5, '堺東店', '大阪府堺市堺区三国ヶ丘御幸通59', '072'),
  L('MARUYA', 'MY03', 27, 5, '枚方市駅前店', '大阪府枚方市岡東町12-2', '072'),
  L('MARUYA', 'MY03', 28, 5, '西宮北口店', '兵庫県西宮市高松町5-22', '0798', { role: 'freezerFailure', diagram: true, busy: true }),
  L('MARUYA', 'MY03', 28, 5, '姫路駅前店', '兵庫県姫路市駅前町188-1', '079', { closingInDays: 45 }),
  L('MARUYA', 'MY03', 25, 5, '草津店', '滋賀県草津市渋川1丁目1-50', '077'),
  L('MARUYA', 'MY03', 26, 5, '宇治店', '京都府宇治市宇治壱番132', '0774', { role: 'removed', diagram: true }),
  L('MARUYA', 'MY04', 33, 6, '岡山駅前店', '岡山県岡山市北区駅前町1丁目8-18', '086'),
  L('MARUYA', 'MY04', 34, 6, '広島八丁堀店', '広島県広島市中区八丁堀10-8', '082', { diagram: true }),
  L('MARUYA', 'MY04', 37, 7, '高松瓦町店', '香川県高松市常磐町1丁目3-1', '087', { role: 'waiting' }),
  L('MARUYA', 'MY04', 38, 7, '松山大街道店', '愛媛県松山市大街道2丁目5-1', '089', { role: 'waiting' }),
];

// ---- user groups ----

export interface DemoUsergroup {
  key: string;
  name: string; // at most 50 characters
  authority: number;
  /** The stores it sees (authorities 20, 30, 101); administrators and maintenance see all. */
  stores: (location: DemoLocation) => boolean;
}

const none = () => false;
const EAST_GROUPS = ['OR01', 'OR02', 'MY01'];

export const USERGROUPS: readonly DemoUsergroup[] = [
  { key: 'system', name: 'システム管理者グループ', authority: 1, stores: none },
  { key: 'hqOnreco', name: '本部管理者（オンレコマート）', authority: 2, stores: none },
  { key: 'hqMaruya', name: '本部管理者（まるやマーケット）', authority: 2, stores: none },
  { key: 'regionalWest', name: '地域本部管理者（西日本）', authority: 3, stores: none },
  { key: 'quality', name: '品質管理部', authority: 4, stores: none },
  { key: 'operations', name: '運用管理チーム', authority: 5, stores: none },
  { key: 'maintenance', name: '保守担当（オンレコサービス）', authority: 10, stores: none },
  { key: 'caseEast', name: 'ケースマネージャー（東日本）', authority: 20, stores: (l) => EAST_GROUPS.includes(l.storegroupId) },
  { key: 'caseWest', name: 'ケースマネージャー（西日本）', authority: 20, stores: (l) => !EAST_GROUPS.includes(l.storegroupId) },
  ...STOREGROUPS.map((group) => ({
    key: `area:${group.storegroupId}`,
    name: `${group.companyId === 'ONRECO' ? 'オンレコマート' : 'まるや'} ${group.storegroupName.replace('エリア', '')}エリアマネージャー`,
    authority: 30,
    stores: (l: DemoLocation) => l.storegroupId === group.storegroupId,
  })),
];

/** Each store has a store-user group of its own (authority 101) seeing exactly that store. */
export const storeUsergroupKey = (branch: string) => `store:${branch}`;
export const storeUsergroupName = (brand: string, branch: string) => `${brand} ${branch} 店舗スタッフ`;

// ---- users ----

export interface DemoUser {
  loginId: string;
  userName: string; // at most 50 characters
  companyId: string;
  telNo: string | null;
  mails: string[]; // 1 to 3
  language: 'JP' | 'US';
  valid: boolean;
  alertFilter: 0 | 1 | 2;
  groups: string[]; // usergroup keys
}

const U = (
  loginId: string, userName: string, companyId: string, telNo: string | null, mails: string[], groups: string[],
  extra: Partial<Pick<DemoUser, 'language' | 'valid' | 'alertFilter'>> = {},
): DemoUser => ({ loginId, userName, companyId, telNo, mails, language: 'JP', valid: true, alertFilter: 1, groups, ...extra });

const home = (branch: string) => storeUsergroupKey(branch);

export const USERS: readonly DemoUser[] = [
  // The demo logins, one per role (DEMO_LOGINS in app/domain/demo.ts).
  U('admin', '佐藤 健一', 'ONRECO', '09012345601', ['admin@example.com'], ['system'], { alertFilter: 2 }),
  U('maintenance', '鈴木 大輔', 'ONRECO', '09012345602', ['maintenance@example.com', 'support-desk@example.com'], ['maintenance'], { alertFilter: 0 }),
  U('casemanager', '田中 美咲', 'ONRECO', '09012345603', ['casemanager@example.com'], ['caseEast'], { alertFilter: 0 }),
  U('areamanager', '伊藤 翔太', 'ONRECO', '09012345604', ['areamanager@example.com'], ['area:OR02']),
  U('storeuser', '渡辺 さくら', 'ONRECO', '0333451201', ['storeuser@example.com'], [home('新宿西口店')], { alertFilter: 0 }),
  // The rest of the staff.
  U('yamamoto01', '山本 浩二', 'ONRECO', '0355550101', ['k.yamamoto@example.com', 'hq-onreco@example.com'], ['hqOnreco'], { alertFilter: 2 }),
  U('nakamura01', '中村 恵', 'MARUYA', '0355550102', ['m.nakamura@example.com'], ['hqMaruya'], { alertFilter: 2 }),
  U('kobayashi01', '小林 直樹', 'ONRECO', '0662220103', ['n.kobayashi@example.com'], ['regionalWest'], { alertFilter: 1 }),
  U('kato01', '加藤 由美', 'MARUYA', '0355550104', ['y.kato@example.com', 'quality@example.com', 'y.kato.mobile@example.com'], ['quality'], { alertFilter: 0 }),
  U('yoshida01', '吉田 拓也', 'ONRECO', '0355550105', ['t.yoshida@example.com'], ['operations'], { alertFilter: 1 }),
  U('yamada01', '山田 剛', 'ONRECO', '08022220106', ['t.yamada@example.com'], ['maintenance'], { valid: false, alertFilter: 2 }),
  U('sasaki01', '佐々木 亮', 'MARUYA', '08022220107', ['r.sasaki@example.com'], ['caseWest'], { alertFilter: 0 }),
  U('yamaguchi01', '山口 真一', 'ONRECO', '09033330108', ['s.yamaguchi@example.com'], ['area:OR01']),
  U('matsumoto01', '松本 明美', 'ONRECO', '09033330109', ['a.matsumoto@example.com', 'chubu-area@example.com'], ['area:OR03'], { alertFilter: 0 }),
  U('inoue01', '井上 大樹', 'ONRECO', '09033330110', ['d.inoue@example.com'], ['area:OR04']),
  U('kimura01', '木村 早苗', 'ONRECO', '09033330111', ['s.kimura@example.com'], ['area:OR05'], { alertFilter: 0 }),
  U('hayashi01', '林 修', 'MARUYA', '09033330112', ['o.hayashi@example.com'], ['area:MY01']),
  U('shimizu01', '清水 健太', 'MARUYA', '09033330113', ['k.shimizu@example.com'], ['area:MY03'], { alertFilter: 0 }),
  U('ishikawa01', '石川 浩', 'MARUYA', null, ['h.ishikawa@example.com'], ['area:MY02'], { valid: false, alertFilter: 2 }),
  U('nguyen01', 'Nguyen Van An', 'ONRECO', '08044440114', ['an.nguyen@example.com'], [home('新宿西口店')], { language: 'US' }),
  U('mori01', '森 結衣', 'ONRECO', '0663330115', ['y.mori@example.com', 'umeda-store@example.com'], [home('梅田茶屋町店')], { alertFilter: 0 }),
  U('ikeda01', '池田 悠人', 'ONRECO', '0924440116', ['y.ikeda@example.com'], [home('博多駅前店')]),
  U('hashimoto01', '橋本 千尋', 'MARUYA', '0339990117', ['c.hashimoto@example.com'], [home('練馬春日町店')], { alertFilter: 0 }),
  U('yamazaki01', '山崎 和也', 'MARUYA', '0668880118', ['k.yamazaki@example.com'], [home('豊中服部店')]),
  U('abe01', '阿部 亜希子', 'ONRECO', '0112220119', ['a.abe@example.com'], [home('札幌大通店')], { valid: false, alertFilter: 2 }),
  U('carter01', 'Emily Carter', 'ONRECO', '08055550120', ['emily.carter@example.com', 'e.carter.mobile@example.com'], [home('名古屋栄店')], { language: 'US', alertFilter: 0 }),
  U('okada01', '岡田 翼', 'MARUYA', '0798880121', ['t.okada@example.com'], [home('西宮北口店')], { alertFilter: 2 }),
  U('brown01', 'Michael Brown', 'MARUYA', '0527770122', ['michael.brown@example.com'], [home('千種今池店'), 'area:MY02'], { language: 'US' }),
];

// ---- notices (title ≤ 30, content ≤ 100 characters) ----

export interface DemoNotice {
  title: string;
  content: string;
  hoursAgo: number;
}

export const NOTICES: readonly DemoNotice[] = [
  {
    title: '保守窓口の受付時間変更について',
    content: '来月から保守窓口の受付時間を8:00〜22:00に変更します。夜間の緊急の温度異常は24時間受付の保守ダイヤルへご連絡ください。',
    hoursAgo: 20,
  },
  {
    title: '夜間メンテナンスのお知らせ',
    content: '来週水曜日の2:00から4:00まで、システムメンテナンスのため画面がご利用いただけません。温度の記録は継続されます。',
    hoursAgo: 4 * 24 + 3,
  },
  {
    title: '新しいセンサ機種に対応しました',
    content: 'SwitchBot温湿度計とInkbird IBS-TH2を登録できるようになりました。センサ情報編集画面から機種を選択してください。',
    hoursAgo: 12 * 24 + 5,
  },
  {
    title: '冷凍ケースの霜取り設定の見直しについて',
    content: '冬季は霜取り時間帯の温度上昇で警報が出ることがあります。霜取り時間帯がセンサ情報に登録されているかご確認ください。',
    hoursAgo: 30 * 24 + 2,
  },
  {
    title: '温度管理コンソールをリニューアルしました',
    content: 'ダッシュボードと店舗レイアウト図の表示を改善しました。操作マニュアルは画面右上のメニューからご覧いただけます。',
    hoursAgo: 62 * 24 + 1,
  },
];

// ---- alert stop comments ----

export const STOP_COMMENTS: readonly string[] = [
  '扉の閉め忘れを確認、商品を移動しました',
  '納品作業中のため一時的な上昇です',
  '保守業者に連絡済み、到着待ちです',
  'ケース内の商品を別のケースへ移しました',
  '霜取り後の一時的な上昇を確認しました',
  '品出し作業による一時的な温度上昇です',
  'センサの位置を確認しました。異常なし',
  '冷機ケースの吸込口の詰まりを解消しました',
];
