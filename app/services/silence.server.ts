import { sql } from 'kysely';
import type { Db } from '~/db/db.server';
import { evaluateGatewaySilence, evaluateSilence } from '~/domain/alert-engine';
import { getEnv } from '~/env.server';
import type { SensorTransition } from './alerts.server';
import { loadStoreForEvaluation, saveEvaluation } from './sensor-evaluation.server';

/**
 * The worker's minute check: a store whose gateway went silent gets one store-level alert (and
 * its sensors none); otherwise each sensor silent for the threshold opens OE00000005, and open
 * ones are re-notified every snoozing_time. Only candidate stores are loaded, found by one
 * indexed query, so the check stays cheap for a large chain.
 */
export async function checkSilence(db: Db, now: Date): Promise<number> {
  const threshold = getEnv().ONRECO_NO_COMMUNICATION_MINUTES;
  const silentSince = new Date(now.getTime() - threshold * 60_000);
  const candidates = await db
    .selectFrom('stores')
    .select('stores.store_id')
    .where('stores.working_state', '=', 1)
    .where((eb) =>
      eb.or([
        eb('stores.last_gateway_contact_at', '<', silentSince),
        eb.exists(
          eb
            .selectFrom('sensor_states as ss')
            .select(sql`1`.as('one'))
            .whereRef('ss.store_id', '=', 'stores.store_id')
            .where((inner) => inner.or([inner('ss.last_measured_at', '<', silentSince), inner(sql`'OE00000005'`, '=', sql`any(ss.alert_codes)`)])),
        ),
      ]),
    )
    .execute();
  for (const { store_id } of candidates) await checkStore(db, store_id, now, threshold);
  return candidates.length;
}

async function checkStore(db: Db, storeId: string, now: Date, threshold: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const store = await loadStoreForEvaluation(trx, storeId);
    if (!store) return;
    const { last_gateway_contact_at: lastContact } = await trx.selectFrom('stores').select('last_gateway_contact_at').where('store_id', '=', storeId).executeTakeFirstOrThrow();
    const gateway = evaluateGatewaySilence(lastContact, now, threshold, store.gatewayDown);
    const storeChanges: SensorTransition[] = [];
    if (gateway.transition) {
      store.gatewayDown = gateway.down;
      await trx.updateTable('stores').set({ gateway_down: gateway.down }).where('store_id', '=', storeId).execute();
      const { type, code, at } = gateway.transition;
      storeChanges.push({ equipmentId: null, equipmentName: null, transition: { type, code, at, notify: true, temperature: null, lowerLimit: null, upperLimit: null } });
    }
    const evaluated = [...store.sensors.values()]
      .map((sensor) => ({ sensor, evaluation: evaluateSilence(sensor.settings, sensor.state, now, { stopWindows: store.schedules, gatewayDown: store.gatewayDown }), latest: null }))
      .filter(({ evaluation }) => evaluation.transitions.length > 0);
    if (evaluated.length > 0 || storeChanges.length > 0) await saveEvaluation(trx, store, evaluated, now, storeChanges);
  });
}
