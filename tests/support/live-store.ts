import type { Db } from '../../app/db/db.server';
import { AUTHORITY } from '../../app/domain/roles';
import { createSensor, createStore, createUser, issuePin } from '../fixtures/chain';
import { minuteAgo, pairOverApi, postReading } from './gateway-api';

/**
 * A store for the live-screen tests: one sensor (limits 0 to 10 ℃, no guard time) whose gateway
 * is paired over the API and has sent 4.0 ℃ six minutes ago, and an area manager who sees the
 * store. The gateway token, to send more readings.
 */
export async function createLiveStore(db: Db, base: string, store: { storeId: string; storeName: string; serialNo: string; sensorName: string; viewer: string; pin: string }): Promise<string> {
  await createStore(db, store.storeId, { store_name: store.storeName });
  await createSensor(db, store.storeId, store.serialNo, { equipment_name: store.sensorName, guard_time: null, lower_limit: 0, upper_limit: 10 });
  await createUser(db, store.viewer, AUTHORITY.areaManager, { storeIds: [store.storeId] });
  const token = await pairOverApi(base, store.storeId, await issuePin(db, store.storeId, store.pin));
  await postReading(base, token, store.serialNo, minuteAgo(6), 4.0);
  return token;
}
