import pg from 'pg';
import type { Db } from '~/db/db.server';
import { canViewStore } from '~/models/stores.server';
import type { Viewer } from '~/models/users.server';
import { logger } from './logger.server';

// One LISTEN connection per web process fans PostgreSQL notifications (sent by the ingest and
// alert transactions at commit) out to the subscribers: the server-sent-event streams of open
// screens (app/http/sse.server.ts).

type Listener = (storeId: string) => void;
interface Subscriber {
  listener: Listener;
  onStop: () => void;
}

const CHANNEL = 'onreco_store';
/** Gateway tokens revoked (pairing again, exchange, removal): the store id; app/services/gateway-tokens.server.ts forgets them. */
export const GATEWAY_CHANNEL = 'onreco_gateway';
interface GatewaySubscriber {
  listener: Listener;
  /** The connection was lost: notifications may have been missed. */
  onLost: () => void;
}
const gatewaySubscribers = new Set<GatewaySubscriber>();
const log = logger.child({ module: 'live-updates' });
const subscribers = new Set<Subscriber>();
let connecting: Promise<void> | null = null;
let connection: pg.Client | null = null;
let stopping = false;

/**
 * On SIGTERM or SIGINT the web server (scripts/server.ts) closes, which waits for open connections: the
 * event streams would hold it, and the LISTEN connection the process, until it is killed. Their
 * subscribers end them now; browsers reconnect by themselves (to the next server).
 */
function endOnStop() {
  stopping = true;
  for (const subscriber of [...subscribers]) subscriber.onStop();
  connection?.end().catch(() => undefined);
}

async function connect(): Promise<void> {
  if (!connection) {
    process.once('SIGTERM', endOnStop);
    process.once('SIGINT', endOnStop);
  }
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  connection = client;
  client.on('notification', (message) => {
    if (message.channel === CHANNEL && message.payload) for (const subscriber of subscribers) subscriber.listener(message.payload);
    if (message.channel === GATEWAY_CHANNEL && message.payload) for (const subscriber of gatewaySubscribers) subscriber.listener(message.payload);
  });
  client.on('error', (error) => {
    if (stopping) return;
    log.warn({ err: error }, 'live update connection lost; reconnecting');
    for (const subscriber of gatewaySubscribers) subscriber.onLost();
    connecting = null;
    client.end().catch(() => undefined);
    setTimeout(() => void ensureConnected(), 2000);
  });
  await client.connect();
  await client.query(`listen ${CHANNEL}`);
  await client.query(`listen ${GATEWAY_CHANNEL}`);
}

function ensureConnected(): Promise<void> {
  connecting ??= connect().catch((error) => {
    connecting = null;
    throw error;
  });
  return connecting;
}

/** True once the process is stopping: a new subscriber would only hold its server open. */
export function isStopping(): boolean {
  return stopping;
}

/**
 * Calls `listener` with the store id of every committed change; returns the unsubscribe.
 * `onStop` runs when the process stops: the subscriber ends what it holds open.
 */
export async function subscribeStoreChanges(listener: Listener, onStop: () => void = () => {}): Promise<() => void> {
  await ensureConnected();
  const subscriber = { listener, onStop };
  subscribers.add(subscriber);
  return () => subscribers.delete(subscriber);
}

/** Calls `listener` with the store id of every committed revocation of gateway tokens, in any process; resolves once listening. */
export async function subscribeGatewayChanges(listener: Listener, onLost: () => void): Promise<void> {
  gatewaySubscribers.add({ listener, onLost });
  await ensureConnected();
}

/**
 * For the dashboard's stream (every store the viewer may see): whether a changed store is the
 * viewer's, asked once per store for the life of the stream.
 */
export function storesVisibleTo(db: Db, viewer: Viewer): (storeId: string) => Promise<boolean> {
  const visible = new Map<string, Promise<boolean>>();
  return (storeId) => {
    let answer = visible.get(storeId);
    if (!answer) {
      answer = canViewStore(db, viewer, storeId).catch(() => false);
      visible.set(storeId, answer);
    }
    return answer;
  };
}
