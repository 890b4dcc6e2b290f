import type { AppLoadContext, EntryContext } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { NonceProvider } from '~/components/nonce';
import { withoutNulBytes } from '~/http/html-stream.server';
import '~/http/load-context.server';

// Remix's default Node entry, plus the request's CSP nonce on every inline script
// (app/http/server/security-headers.server.ts), and a render timer that is cleared once the
// page is done, so that a stopping server is not held for its 5 seconds; the HTML passes through
// withoutNulBytes (React 18.3 pads a buffer with NULs where a character did not fit).

const ABORT_DELAY = 5_000;

export default function handleRequest(request: Request, status: number, headers: Headers, remixContext: EntryContext, loadContext: AppLoadContext) {
  // Crawlers and SPA mode get the whole document at once; browsers get the shell first.
  const waitForAll = isbot(request.headers.get('user-agent') ?? '') || remixContext.isSpaMode;
  const nonce = loadContext.cspNonce;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const timer = setTimeout(() => abort(), ABORT_DELAY);
    const ready = () => {
      shellRendered = true;
      const body = withoutNulBytes();
      headers.set('Content-Type', 'text/html');
      resolve(new Response(createReadableStreamFromReadable(body), { headers, status }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady: waitForAll ? undefined : ready,
        onAllReady() {
          clearTimeout(timer);
          if (waitForAll) ready();
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          status = 500;
          // Errors of the shell itself reject above and are logged by Remix.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
