import type { Db } from '~/db/db.server';
import { evaluateGatewaySilence, evaluateSilence } from '~/domain/alert-engine';
import { staleReadings } from '~/domain/sensor-view';
import { getEnv } from '~/env.server';
import { findStoresToCheckForSilence } from '~/models/sensor-states.server';
import { loadStoreForEvaluation, persistDecision } from './alert-persister.server';

/**
 * The worker's no-communication check: a store whose gateway went silent gets one store-level
 * alert (and its sensors none); otherwise each sensor silent for the threshold opens OE00000005,
 * and open ones are re-notified every snoozing_time. Only candidate stores are loaded, found by
 * one indexed query, so the check stays cheap for a large chain. Returns how many were checked.
 */
export async function checkSilence(db: Db, now: Date): Promise<number> {
  const threshold = getEnv().ONRECO_NO_COMMUNICATION_MINUTES;
  const candidates = await findStoresToCheckForSilence(db, new Date(now.getTime() - threshold * 60_000));
  for (const storeId of candidates) await checkStore(db, storeId, now, threshold);
  return candidates.length;
}

async function checkStore(db: Db, storeId: string, now: Date, threshold: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const loaded = await loadStoreForEvaluation(trx, storeId);
    if (!loaded) return;
    const { store, schedules } = loaded;
    const gateway = evaluateGatewaySilence(store.lastGatewayContactAt, now, threshold, store.gatewayDown);
    const sensors = loaded.sensors
      .map(({ equipmentId, equipmentName, settings, state }) => ({
        equipmentId,
        equipmentName,
        evaluation: evaluateSilence(settings, state, now, { stopWindows: schedules, gatewayDown: gateway.down }),
        latest: null,
      }))
      .filter(({ evaluation }) => evaluation.transitions.length > 0);
    if (sensors.length === 0 && !gateway.transition) return;
    await persistDecision(trx, { store, sensors, gateway: gateway.transition, connection: gateway.transition && { gatewayDown: gateway.down } }, now);
  });
}

/**
 * The readings the sensor views must mark as stale now: those older than the same threshold the
 * no-communication check uses, so a view never shows as live what the alerts call silent.
 */
export function staleReadingsNow(readings: Iterable<readonly [number, string | null]>, now = new Date()): Record<number, string> {
  return staleReadings(readings, now, getEnv().ONRECO_NO_COMMUNICATION_MINUTES);
}
