// Bundles the gateway into one ES module for the store boxes:
//   npx tsx gateway/deploy/build.ts [outfile]      (default gateway/dist/onreco-gateway.mjs)
// Why: through tsx the daemon carries tsx's loader (a second V8 isolate, ~35 MB of RSS); the
// bundle runs on plain node and fits the 64 MB budget (see tests/bench/gateway-rss.ts).
// Packages stay external: the bundle must sit inside the install tree, where node_modules is
// found (better-sqlite3 is native).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_BUNDLE = path.resolve(here, '../dist/onreco-gateway.mjs');

/**
 * `external`: bundle every package but these (the Debian package, gateway/deploy/package.ts);
 * without it every package stays external (the bundle inside a checkout's install tree).
 */
export async function buildGateway(outfile = DEFAULT_BUNDLE, options: { external?: string[]; entry?: 'main' | 'launcher'; version?: string } = {}): Promise<string> {
  // esbuild ships with tsx (a dependency of the project): take that copy.
  const esbuild = createRequire(require.resolve('tsx'))('esbuild') as typeof import('esbuild');
  const shebang = '#!/usr/bin/env node';
  await esbuild.build({
    entryPoints: [path.resolve(here, `../${options.entry ?? 'main'}.ts`)],
    // A release's version is stamped into its bundle (gateway/version.ts); without one, the source's.
    ...(options.version ? { define: { __ONRECO_GATEWAY_VERSION__: JSON.stringify(options.version) } } : {}),
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    ...(options.external
      ? {
          external: options.external,
          minifyWhitespace: true,
          minifySyntax: true,
          legalComments: 'none',
          // The CommonJS packages inside the bundle call require() for Node's own modules.
          banner: { js: `${shebang}\nimport { createRequire as __onrecoCreateRequire } from 'node:module'; const require = __onrecoCreateRequire(import.meta.url);` },
        }
      : { packages: 'external', banner: { js: shebang } }),
  });
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await buildGateway(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  console.log(`built ${out}`);
}
