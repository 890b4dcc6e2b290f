import pg from 'pg';
import { logger } from './logger.server';

// One LISTEN connection per web process fans PostgreSQL notifications (sent by the ingest and
// alert transactions at commit) out to the server-sent-event streams of open screens.

type Listener = (storeId: string) => void;

const CHANNEL = 'onreco_store';
const log = logger.child({ module: 'live-updates' });
const listeners = new Set<Listener>();
/** The end of every open event stream. */
const openStreams = new Set<() => void>();
let connecting: Promise<void> | null = null;
let connection: pg.Client | null = null;
let stopping = false;

/**
 * On SIGTERM or SIGINT remix-serve closes its server, which waits for open connections: the
 * event streams would hold it, and the LISTEN connection the process, until it is killed. They
 * end now; browsers reconnect by themselves (to the next server).
 */
function endOnStop() {
  stopping = true;
  for (const end of openStreams) end();
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
    if (message.channel === CHANNEL && message.payload) for (const listener of listeners) listener(message.payload);
  });
  client.on('error', (error) => {
    if (stopping) return;
    log.warn({ err: error }, 'live update connection lost; reconnecting');
    connecting = null;
    client.end().catch(() => undefined);
    setTimeout(() => void ensureConnected(), 2000);
  });
  await client.connect();
  await client.query(`listen ${CHANNEL}`);
}

function ensureConnected(): Promise<void> {
  connecting ??= connect().catch((error) => {
    connecting = null;
    throw error;
  });
  return connecting;
}

/** Calls `listener` with the store id of every committed change; returns the unsubscribe. */
export async function subscribeStoreChanges(listener: Listener): Promise<() => void> {
  await ensureConnected();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const KEEPALIVE_MS = 25_000;

/**
 * A text/event-stream that sends `event: change` when one of the stores passes `wanted`,
 * at most once a second, and a comment every 25 s so proxies keep it open.
 */
export async function storeChangeStream(request: Request, wanted: (storeId: string) => boolean | Promise<boolean>): Promise<Response> {
  if (stopping) return new Response('stopping', { status: 503, headers: { 'Retry-After': '5' } });
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let pending: ReturnType<typeof setTimeout> | null = null;
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const unsubscribe = await subscribeStoreChanges(async (storeId) => {
        if (pending || !(await wanted(storeId)) || pending) return;
        pending = setTimeout(() => {
          pending = null;
          send(`event: change\ndata: ${JSON.stringify({ store_id: storeId })}\n\n`);
        }, 1000);
      });
      const keepalive = setInterval(() => send(': keepalive\n\n'), KEEPALIVE_MS);
      cleanup = () => {
        openStreams.delete(cleanup);
        unsubscribe();
        clearInterval(keepalive);
        if (pending) clearTimeout(pending);
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      openStreams.add(cleanup);
      request.signal.addEventListener('abort', () => cleanup());
      send('retry: 5000\n\n');
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' },
  });
}
