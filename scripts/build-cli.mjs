// Bundles the onreco CLI into .cache/cli (run by `npm ci` and `npm install` through "prepare"),
// so the installed bin starts without compiling TypeScript: plain JavaScript, packages left to
// node_modules, the database modules in chunks of their own that only `onreco db` loads.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Chunks are named by their content: an earlier build's would otherwise stay beside the new ones.
rmSync('.cache/cli', { recursive: true, force: true });
await build({
  entryPoints: { onreco: 'cli/main.ts' },
  outdir: '.cache/cli',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
