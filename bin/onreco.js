#!/usr/bin/env node
// The onreco command. Runs the bundle that `npm ci` builds (scripts/build-cli.mjs), unless a
// source is newer than it (a checkout being worked on): then the sources through tsx.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = `${root}.cache/cli/onreco.mjs`;

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = `${dir}/${entry.name}`;
    newest = Math.max(newest, entry.isDirectory() ? newestSource(file) : statSync(file).mtimeMs);
  }
  return newest;
}

const fresh = existsSync(bundle) && statSync(bundle).mtimeMs >= Math.max(newestSource(`${root}cli`), newestSource(`${root}app/domain`));
if (fresh) {
  await import(bundle);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(`${root}cli/main.ts`);
}
