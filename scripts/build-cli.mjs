// Bundles the onreco CLI into .cache/cli (run by `npm ci` and `npm install` through "prepare"),
// so the installed bin starts without compiling TypeScript: plain JavaScript, packages left to
// node_modules, the database modules in chunks of their own that only `onreco db` loads.
import { build } from 'esbuild';

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
