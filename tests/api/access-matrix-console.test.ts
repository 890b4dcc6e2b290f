import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeMenu } from '~/domain/roles';
import { type Caller, type Side, type World, SIDES, buildAccessWorld } from '../fixtures/access-world';
import { CONSOLE_DIRS, CONSOLE_ROUTES, type ConsoleRoute, type WorldState, consoleOutcome, consolePathOf, consoleRequestOf, cookieOf, keepWorldState, leakOf, meetsOutcome } from '../support/access-matrix';
import { resetDb, testDb } from '../support/db';
import { BASE, call } from '../support/requests';

// The console's matrix (issue 10): every route module of the store pages
// (app/routes/_app+/stores.$storeId+/) and of app/routes/resources+/, loader and action, on a
// session cookie of each caller of the access world, for a store (or its sensor, diagram) of
// either chain. A refused action changes nothing; an allowed one is undone.

type Handler = Parameters<typeof call>[0];
const ROUTES = path.resolve(__dirname, '../../app/routes');
const db = testDb();
let world: World;
let state: WorldState;
const cookies = new Map<string, string>();
let cases = 0;

beforeAll(async () => {
  await resetDb();
  world = await buildAccessWorld(db);
  state = await keepWorldState(db);
  for (const caller of Object.values(world.callers)) {
    const cookie = await cookieOf(caller);
    if (cookie) cookies.set(caller.name, cookie);
  }
}, 120_000);

afterAll(async () => {
  console.log(`console access matrix: ${cases} cases over ${Object.keys(CONSOLE_ROUTES).length} route modules`);
  await state?.drop();
  await resetDb();
});

const moduleFiles = () =>
  Object.entries(CONSOLE_DIRS).flatMap(([key, dir]) => readdirSync(path.join(ROUTES, dir)).filter((file) => /\.tsx?$/.test(file)).map((file) => `${key}/${file}`));

async function runCase(key: string, route: ConsoleRoute, kind: 'loader' | 'action', handler: Handler, caller: Caller, side: Side): Promise<string | null> {
  const { request, params } = consoleRequestOf(key, route, kind, world.chains[side], world, cookies.get(caller.name));
  const outcome = consoleOutcome(route, caller, side);
  const before = kind === 'action' && !outcome.allowed ? await state.checksums() : undefined;
  cases += 1;
  const response = await call(handler, request, params);
  const label = `${key} ${kind} as ${caller.name} on chain ${side}`;
  const problems: string[] = [];
  if (!meetsOutcome(outcome, response)) {
    problems.push(`expected ${outcome.allowed ? 'success' : outcome.status} (${outcome.why}), got ${response.status} ${response.headers.get('Location') ?? ''}`);
  } else if (outcome.allowed && key !== 'resources/events.ts') {
    // (The event stream never ends: it is only opened.)
    const leak = await leakOf({ access: { kind: route.public ? 'public' : 'user' } }, caller, response);
    if (leak) problems.push(leak);
  }
  await response.body?.cancel();
  if (before) {
    const after = await state.checksums();
    const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
    if (changed.length > 0) problems.push(`a refused action changed ${changed.join(', ')}`);
  }
  if (kind === 'action') await state.restore();
  return problems.length > 0 ? `${label}: ${problems.join('; ')}` : null;
}

describe('the access matrix of the console\'s store pages and resources', () => {
  it('has an entry for every route module, with the capability the store menu gives its page (a page to come has none yet)', () => {
    expect(moduleFiles().sort()).toEqual(Object.keys(CONSOLE_ROUTES).sort());
    for (const link of storeMenu('S').flatMap((section) => section.links)) {
      const key = Object.keys(CONSOLE_ROUTES).find((candidate) => consolePathOf(candidate, 'S') === new URL(link.to, BASE).pathname);
      // (The menu already links pages still to come: reports, settings.)
      if (key) expect(CONSOLE_ROUTES[key].permission, `${key}: the menu's capability`).toBe(link.permission);
    }
  });

  for (const key of Object.keys(CONSOLE_ROUTES)) {
    it(key, async () => {
      const route = CONSOLE_ROUTES[key];
      const [folder, file] = key.split('/');
      const module = (await import(path.join(ROUTES, CONSOLE_DIRS[folder as keyof typeof CONSOLE_DIRS], file))) as { loader?: Handler; action?: Handler };
      if (module.action && !route.form) throw new Error(`${key} has an action but no sample form in CONSOLE_ROUTES (tests/support/access-matrix.ts)`);
      const failures: string[] = [];
      for (const kind of ['loader', 'action'] as const) {
        const handler = module[kind];
        if (!handler) continue;
        // No state-changing GET (issue 10): a loader's cases, allowed ones included, leave every table as it was.
        const before = kind === 'loader' ? await state.checksums() : undefined;
        for (const side of route.unscoped ? (['A'] as Side[]) : SIDES) {
          for (const caller of Object.values(world.callers)) {
            const failure = await runCase(key, route, kind, handler, caller, side);
            if (failure) failures.push(failure);
          }
        }
        if (before) {
          const after = await state.checksums();
          const changed = Object.keys(after).filter((table) => before[table] !== after[table]);
          if (changed.length > 0) failures.push(`${key} loader (a GET) changed ${changed.join(', ')}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }
});
