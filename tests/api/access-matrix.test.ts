import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CALLS, type ApiCall } from '~/domain/api';
import { type Caller, type Side, type World, buildAccessWorld } from '../fixtures/access-world';
import {
  type Outcome,
  type Sample,
  type WorldState,
  chainFieldsOf,
  contextOf,
  derivedOutcome,
  keepWorldState,
  leakOf,
  requestOf,
  samplesOf,
  send,
  sidesOf,
} from '../support/access-matrix';
import { resetDb, testDb } from '../support/db';

// The access matrix of the /on-reco API (issue 10), generated from the registry: see
// tests/support/access-matrix.ts for how each case's expected answer is derived. Every case
// runs the call in-process through its route module; an allowed write is undone before the
// next case, and a refused write must leave every table as it was.

const db = testDb();
let world: World;
let state: WorldState;
let cases = 0;
let serial = 0;

beforeAll(async () => {
  await resetDb();
  world = await buildAccessWorld(db);
  state = await keepWorldState(db);
}, 120_000);

afterAll(async () => {
  console.log(`access matrix: ${cases} cases over ${API_CALLS.length} calls`);
  await resetDb();
});

const changedTables = (before: Record<string, string>, after: Record<string, string>) => Object.keys(after).filter((table) => before[table] !== after[table]);

/** Runs one case; answers what went wrong, or null. */
async function runCase(call: ApiCall, sample: Sample, caller: Caller, sides: Record<string, Side>): Promise<string | null> {
  const used = new Set<string>();
  const context = contextOf(call, world, caller, sides, String(++serial), used);
  const input = sample.input(context);
  const unfilled = Object.keys(chainFieldsOf(call)).filter((field) => !used.has(field) && !sample.fresh?.includes(field));
  if (unfilled.length > 0) throw new Error(`${call.id}: its sample does not fill ${unfilled.join(', ')} with ref() (tests/support/access-matrix.ts SAMPLES)`);
  const derived = derivedOutcome(call, sample, context);
  const expected: Outcome = sample.rule ? sample.rule(context, derived) : derived;
  const write = call.method !== 'GET';
  const before = write && !expected.allowed ? await state.checksums() : undefined;
  cases += 1;
  const label = `${call.id}${sample.name ? ` (${sample.name})` : ''} as ${caller.name}${Object.keys(sides).length ? ` with ${Object.entries(sides).map(([field, side]) => `${field}:${side}`).join(' ')}` : ''}`;
  let response: Response;
  try {
    response = await send(call, requestOf(call, input, world, caller.token));
  } catch (error) {
    if (write) await state.restore();
    return `${label}: ${(error as Error).message}`;
  }
  const problems: string[] = [];
  if (expected.allowed) {
    if (!response.ok) problems.push(`expected 2xx (${expected.why}), got ${response.status} ${(await response.clone().text()).slice(0, 200)}`);
    else {
      const leak = await leakOf(call, caller, response);
      if (leak) problems.push(leak);
    }
  } else if (response.status !== expected.status) {
    problems.push(`expected ${expected.status} (${expected.why}), got ${response.status} ${(await response.clone().text()).slice(0, 200)}`);
  }
  await response.body?.cancel();
  if (before) {
    const changed = changedTables(before, await state.checksums());
    if (changed.length > 0) problems.push(`a refused write changed ${changed.join(', ')}`);
    if (changed.length > 0 || response.ok) await state.restore();
  } else if (write && response.ok) {
    await state.restore();
  }
  return problems.length > 0 ? `${label}: ${problems.join('; ')}` : null;
}

describe('the access matrix of the /on-reco API', () => {
  for (const call of API_CALLS) {
    it(`${call.id}: ${call.method} ${call.path}`, async () => {
      const failures: string[] = [];
      for (const sample of samplesOf(call)) {
        for (const sides of sidesOf(call, sample)) {
          for (const caller of Object.values(world.callers)) {
            const failure = await runCase(call, sample, caller, sides);
            if (failure) failures.push(failure);
          }
        }
      }
      expect(failures).toEqual([]);
    });
  }
});
