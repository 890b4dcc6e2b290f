import { isStopping, subscribeStoreChanges } from '~/services/live-updates.server';

// Server-sent events for open screens: the stream and its Response, fed by the live-updates
// service's subscription to committed store changes.

const KEEPALIVE_MS = 25_000;
/** Changes closer together than this are told once. */
const COALESCE_MS = 1000;

/**
 * A text/event-stream that sends `event: change` when one of the stores passes `wanted`,
 * at most once a second, and a comment every 25 s so proxies keep it open.
 */
export async function storeChangeStream(request: Request, wanted: (storeId: string) => boolean | Promise<boolean>): Promise<Response> {
  if (isStopping()) return new Response('stopping', { status: 503, headers: { 'Retry-After': '5' } });
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
