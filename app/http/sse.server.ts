import { isStopping, subscribeStoreChanges } from '~/services/live-updates.server';

// Server-sent events for open screens: the stream and its Response, fed by the live-updates
// service's subscription to committed store changes.

const KEEPALIVE_MS = 25_000;
/** Changes closer together than this are told once. */
const COALESCE_MS = 1000;

/**
 * Streams one user may hold open in one web process: a screen holds one (each tab, each store
 * tablet or wall screen sharing a login), and more would only let one account hold the process's sockets and
 * subscriptions. docs/decisions/213-slow-clients-and-proxies.md.
 */
export const MAX_STREAMS_PER_USER = 50;
const streamsOf = new Map<number, number>();

/** Counts a stream against its user; the returned function, once called, uncounts it. */
function holdStream(userId: number): () => void {
  streamsOf.set(userId, (streamsOf.get(userId) ?? 0) + 1);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    const left = (streamsOf.get(userId) ?? 1) - 1;
    if (left === 0) streamsOf.delete(userId);
    else streamsOf.set(userId, left);
  };
}

/**
 * A text/event-stream for `userId` (429 past MAX_STREAMS_PER_USER) that sends `event: change` when one of the stores passes `wanted`,
 * at most once a second, and a comment every 25 s so proxies keep it open.
 */
export async function storeChangeStream(request: Request, userId: number, wanted: (storeId: string) => boolean | Promise<boolean>): Promise<Response> {
  if (isStopping()) return new Response('stopping', { status: 503, headers: { 'Retry-After': '5' } });
  if ((streamsOf.get(userId) ?? 0) >= MAX_STREAMS_PER_USER) return new Response('too many live-update streams', { status: 429, headers: { 'Retry-After': '30' } });
  const release = holdStream(userId);
  const encoder = new TextEncoder();
  let cleanup = release;
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
      const unsubscribe = await subscribeStoreChanges(
        async (storeId) => {
          if (pending || !(await wanted(storeId)) || pending) return;
          pending = setTimeout(() => {
            pending = null;
            send(`event: change\ndata: ${JSON.stringify({ store_id: storeId })}\n\n`);
          }, COALESCE_MS);
        },
        () => cleanup(),
      );
      const keepalive = setInterval(() => send(': keepalive\n\n'), KEEPALIVE_MS);
      cleanup = () => {
        release();
        unsubscribe();
        clearInterval(keepalive);
        if (pending) clearTimeout(pending);
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      request.signal.addEventListener('abort', () => cleanup());
      // Gone while subscribing: the abort came before the listener.
      if (request.signal.aborted) return cleanup();
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
