import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

// Files of an installed package served as they ship (pdf.js for the diagrams, swagger-ui for the
// API reference), so no build step copies them and the versions always match what is installed.
// Only the names a route allows are served; anything else is 404.

const TYPES: Record<string, string> = {
  '.mjs': 'text/javascript',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.bcmap': 'application/octet-stream',
  '.pfb': 'application/octet-stream',
  '.ttf': 'font/ttf',
  '.icc': 'application/vnd.iccprofile',
  '.png': 'image/png',
};

/** The folder of an installed package. */
export function packageRoot(name: string): string {
  return path.dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
}

/** A file of the package at `root`, when `allowed` names it; a 404 Response is thrown otherwise. */
export async function packageFileResponse(root: string, file: string, allowed: RegExp): Promise<Response> {
  if (!allowed.test(file)) throw new Response('Not Found', { status: 404 });
  let content: Buffer;
  try {
    content = await readFile(path.join(root, file));
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
