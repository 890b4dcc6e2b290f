import type { Db } from '~/db/db.server';

// The demo's system masters beyond the two operating chains: companies that are being onboarded
// (with their store groups, no stores yet) and user groups being prepared for them, so that the
// company, store group and user group lists have more than one page (001 §9: 20 per page) and
// rows that may be deleted (nothing uses them) beside rows that may not (the chains').

const ONBOARDING: readonly { id: string; name: string; areas: readonly string[] }[] = [
  { id: 'SAKURA', name: 'さくらフーズ株式会社', areas: ['北関東', '南関東'] },
  { id: 'MIDORI', name: 'みどり生鮮館株式会社', areas: ['東海', '北陸'] },
  { id: 'HIKARI', name: 'ひかりドラッグ株式会社', areas: ['関西', '中国'] },
  { id: 'AOZORA', name: 'あおぞら商店株式会社', areas: ['九州'] },
  { id: 'KAEDE', name: 'かえでベーカリー株式会社', areas: ['首都圏'] },
  { id: 'TSUBAKI', name: 'つばきデリカ株式会社', areas: ['北海道', '東北'] },
  { id: 'HOSHI', name: 'ほしぞらストア株式会社', areas: ['四国'] },
  { id: 'UMINEKO', name: 'うみねこ水産株式会社', areas: ['東北', '北海道'] },
  { id: 'KOMUGI', name: 'こむぎ製パン株式会社', areas: ['関西'] },
  { id: 'YAMABUKI', name: 'やまぶき食品株式会社', areas: ['信越'] },
  { id: 'ASAHIMART', name: '朝日マート株式会社', areas: ['首都圏', '東海'] },
  { id: 'SEIRYU', name: '清流スーパー株式会社', areas: ['中国'] },
  { id: 'MINORI', name: 'みのり農産株式会社', areas: ['九州', '沖縄'] },
  { id: 'KAZE', name: '風の丘ファーム株式会社', areas: ['北海道'] },
  { id: 'NAGOMI', name: 'なごみ惣菜株式会社', areas: ['関西', '東海'] },
  { id: 'FUJIMI', name: '富士見ストアー株式会社', areas: ['南関東'] },
  { id: 'HINATA', name: 'ひなたコンビニ株式会社', areas: ['九州'] },
  { id: 'IROHA', name: 'いろは酒販株式会社', areas: ['北陸'] },
  { id: 'TAKUMI', name: '匠精肉株式会社', areas: ['関西'] },
  { id: 'SORA', name: 'そらのした株式会社', areas: ['首都圏'] },
  { id: 'MOMIJI', name: 'もみじマーケット株式会社', areas: ['中国', '四国'] },
];

const PREPARED_GROUPS: readonly { name: string; authority: number }[] = [
  ...ONBOARDING.slice(0, 12).map((company) => ({ name: `エリアマネージャー（${company.name.replace('株式会社', '')}）`, authority: 30 })),
  ...ONBOARDING.slice(12).map((company) => ({ name: `エリアマネージャー（${company.name.replace('株式会社', '')}）`, authority: 30 })),
  { name: '監査担当', authority: 5 },
  { name: '保守担当（協力会社）', authority: 10 },
];
// No case-manager or store-user groups here: the demo's groups of those authorities all carry stores.

/** Written in the demo chain's transaction (after its companies, store groups and user groups). */
export async function seedMasters(trx: Db, now: Date): Promise<void> {
  await trx
    .insertInto('companies')
    .values(ONBOARDING.map((company) => ({ company_id: company.id, company_name: company.name, created_at: now, updated_at: now })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  const groups = ONBOARDING.flatMap((company, index) =>
    company.areas.map((area, n) => ({
      storegroup_id: `S${String(index + 1).padStart(2, '0')}${n + 1}`,
      company_id: company.id,
      storegroup_name: `${area}エリア`,
      created_at: now,
      updated_at: now,
    })),
  );
  await trx.insertInto('storegroups').values(groups).onConflict((oc) => oc.doNothing()).execute();
  await trx
    .insertInto('usergroups')
    .values(PREPARED_GROUPS.map((group) => ({ usergroup_name: group.name, usergroup_authority: group.authority, created_at: now, updated_at: now })))
    .execute();
}
