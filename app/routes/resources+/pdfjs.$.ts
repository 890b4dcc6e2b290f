import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { LoaderFunctionArgs } from '@remix-run/node';

// pdf.js as shipped (the module and its worker) and the data it fetches (character maps for
// Japanese PDFs, standard fonts, ICC profiles, decoders), served from the installed pdfjs-dist
// so no build step copies them and the versions always match. Only these file names are
// served; the diagram pages import the module lazily, when a PDF diagram is shown.
const ROOT = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const ALLOWED = /^(build\/pdf(?:\.worker)?\.min\.mjs|cmaps\/[A-Za-z0-9._-]+\.bcmap|standard_fonts\/[A-Za-z0-9._-]+\.(?:pfb|ttf)|wasm\/[A-Za-z0-9._-]+\.(?:wasm|js)|iccs\/[A-Za-z0-9._-]+\.icc)$/;
const TYPES: Record<string, string> = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm', '.bcmap': 'application/octet-stream', '.pfb': 'application/octet-stream', '.ttf': 'font/ttf', '.icc': 'application/vnd.iccprofile' };

export async function loader({ params }: LoaderFunctionArgs) {
  const file = params['*'] ?? '';
  if (!ALLOWED.test(file)) throw new Response('Not Found', { status: 404 });
  let content: Buffer;
  try {
    content = await readFile(path.join(ROOT, file));
  } catch {
    throw new Response('Not Found', { status: 404 });
  }
  return new Response(new Uint8Array(content), {
    headers: {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Cache-Control': 'public, max-age=86400',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
