// Route matching, per request (docs/decisions/194-route-matching.md): @remix-run/router flattens,
// ranks and compiles the whole route tree on every matchRoutes call, and Remix calls it two or three
// times a request. patches/@remix-run+router+*.patch keeps each tree's ranked branches and each
// pattern's expression. Before: the package's own unpatched ESM build (the patch changes the CJS
// build the server loads); after: the patched CJS build; the console's real route tree, in one run.
//   npx tsx tests/bench/route-matching.ts [matches per path]
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import { routeTree } from '../../app/http/server/request-log.server';
import { ensureConsoleBuild } from '../support/console-build';
import { machine } from '../support/console';

const ROUNDS = Number(process.argv[2] ?? 5000);
const PATHS = ['/on-reco/v1/gateway/readings', '/', '/stores/S0001/sensors', '/stores/S0001/temp_graphs', '/stores/S0001/reports', '/on-reco/v1/store_list', '/users', '/on-reco/v1/nowhere'];

type MatchRoutes = (routes: unknown[], pathname: string) => unknown;

function microsecondsPerMatch(matchRoutes: MatchRoutes, routes: unknown[]): number {
  for (const path of PATHS) matchRoutes(routes, path); // warm
  const started = process.cpuUsage();
  for (let i = 0; i < ROUNDS; i++) for (const path of PATHS) matchRoutes(routes, path);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / (ROUNDS * PATHS.length);
}

async function main() {
  const build = (await import(pathToFileURL(await ensureConsoleBuild()).href)) as ServerBuild;
  const routes = routeTree(build);
  const require = createRequire(import.meta.url);
  const patchedPath = require.resolve('@remix-run/router');
  const patched = require(patchedPath) as { matchRoutes: MatchRoutes };
  const original = (await import(pathToFileURL(patchedPath.replace(/router\.cjs\.js$/, 'router.js')).href)) as { matchRoutes: MatchRoutes };
  // The two builds must agree on every path.
  for (const path of PATHS) {
    const ids = (matches: unknown) => JSON.stringify((matches as { route: { id: string } }[] | null)?.map((m) => m.route.id) ?? null);
    if (ids(patched.matchRoutes(routes, path)) !== ids(original.matchRoutes(routes, path))) throw new Error(`the builds disagree on ${path}`);
  }
  const before = microsecondsPerMatch(original.matchRoutes, routes);
  const after = microsecondsPerMatch(patched.matchRoutes, routes);
  console.log(JSON.stringify({ machine: machine(), load_average: os.loadavg().map((l) => Number(l.toFixed(1))), routes: Object.keys(build.routes).length, paths: PATHS.length, matches_each: ROUNDS, cpu_us_per_match: { before: Number(before.toFixed(1)), after: Number(after.toFixed(1)) }, speedup: Number((before / after).toFixed(1)) }, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
