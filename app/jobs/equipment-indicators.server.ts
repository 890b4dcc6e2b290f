import { dailyIndicators } from '~/domain/equipment-indicators';
import { fromJapan, japanParts } from '~/domain/japan-time';
import { saveStoreIndicators, storeIndicatorInputs, storesWithSensors } from '~/models/equipment-indicators.server';
import type { Job } from './job.server';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Yesterday's (Japan time) equipment indicators of every sensor, store by store (decision 298).
 * Runs at 03:40 Japan time, after the night's defrosts have recovered; a rerun rewrites the day.
 */
export const equipmentIndicatorsJob: Job = {
  name: 'equipment indicators',
  schedule: '0 40 18 * * *', // 18:40 UTC = 03:40 Japan time
  run: async ({ db, now, log }) => {
    const today = japanParts(now);
    const from = fromJapan(today.year, today.month, today.day - 1);
    const to = fromJapan(today.year, today.month, today.day);
    const day = (({ year, month, day: d }) => `${year}-${pad(month)}-${pad(d)}`)(japanParts(from));
    let sensors = 0;
    for (const storeId of await storesWithSensors(db)) {
      const inputs = await storeIndicatorInputs(db, storeId, from, to);
      const rows = inputs.map((input) => ({ equipmentId: input.equipmentId, indicators: dailyIndicators(input.readings, input.settings) }));
      await saveStoreIndicators(db, storeId, day, rows, now);
      sensors += rows.length;
    }
    log.info({ day, sensors }, 'equipment indicators computed');
  },
};
