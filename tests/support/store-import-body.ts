// A store import body (POST /v1/stores/import) of many stores, for the import's test and its
// bench: valid for the fixture chain (store group G01, user group "store group"), or wrong in
// every store (tel_no) and every sensor (lower limit above the upper).

const hex = (n: number) => (n & 255).toString(16).padStart(2, '0').toUpperCase();

export function storeImportBody(count: number, { sensorsPerStore = 4, invalid = false, dryRun = true } = {}) {
  return {
    dry_run: dryRun,
    stores: Array.from({ length: count }, (_, i) => {
      const id = `IM${String(i).padStart(5, '0')}`;
      return {
        store_id: id,
        store_no: String(500_000 + i),
        store_name: `インポート店 ${i}`,
        storegroup_id: 'G01',
        prefecture_id: 13,
        address: '東京都新宿区西新宿1-1-1',
        tel_no: invalid ? '03-xx' : '0312345678',
        opening_date: '20261201',
        usergroup_names: ['store group'],
        gateway_info: `GW-${id}`,
        sensors: Array.from({ length: sensorsPerStore }, (_, j) => ({
          serial_no: `AA:${hex(i >> 16)}:${hex(i >> 8)}:${hex(i)}:00:${hex(j)}`,
          equipment_name: `冷蔵 ${j + 1}`,
          icon_kind: 3,
          lower_limit: invalid ? 9 : 0,
          upper_limit: 8,
        })),
      };
    }),
  };
}

/** The errors of an invalid body: one per store and one per sensor. */
export const invalidImportErrors = (count: number, sensorsPerStore = 4) => count * (1 + sensorsPerStore);
