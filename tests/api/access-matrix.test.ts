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
  await state?.drop();
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
      // No state-changing GET (issue 10): all of a GET call's cases, allowed ones included, leave every table as it was.
      const before = call.method === 'GET' ? await state.checksums() : undefined;
      for (const sample of samplesOf(call)) {
        for (const sides of sidesOf(call, sample)) {
          for (const caller of Object.values(world.callers)) {
            const failure = await runCase(call, sample, caller, sides);
            if (failure) failures.push(failure);
          }
        }
      }
      if (before) expect(changedTables(before, await state.checksums()), `${call.id} is a GET that changed tables`).toEqual([]);
      expect(failures).toEqual([]);
      // A call runs up to ~100 cases, each with the world's checksums: 3 s alone, ten times that
      // when CI runs three projects side by side.
    }, 120_000);
  }
});

describe('a store save\'s referenced groups (DESIGN.md "Scoped")', () => {
  const saveStore = API_CALLS.find((declared) => declared.id === 'saveStore')!;
  const newStore = (storeId: string, side: Side, usergroup: number[]) => ({
    store_id: storeId,
    store_no: String(800000 + serial++),
    store_name: `新店 ${storeId}`,
    company_id: world.chains[side].company,
    storegroup_id: world.chains[side].storegroup,
    prefecture_id: 13,
    address: '東京都港区芝公園4-2-8',
    tel_no: '',
    opening_date: '20240401',
    closing_date: null,
    usergroup,
    gateway_info: `GW-${storeId}`,
  });
  /** Saves as the caller; answers the status, and whether any table changed (the world is put back after). */
  async function save(callerName: 'caseManager' | 'areaManager', body: unknown): Promise<[number, boolean]> {
    const before = await state.checksums();
    const response = await send(saveStore, requestOf(saveStore, body, world, world.callers[callerName].token));
    const changed = changedTables(before, await state.checksums()).length > 0;
    await state.restore();
    return [response.status, changed];
  }

  it('refuses the other chain\'s user groups and store group (404, the found bug) and writes nothing', async () => {
    const { areaManager } = world.callers;
    expect(await save('areaManager', newStore('X1', 'B', [areaManager.usergroup!, world.chains.B.usergroup]))).toEqual([404, false]);
    expect(await save('areaManager', newStore('X2', 'A', [areaManager.usergroup!, world.chains.B.usergroup]))).toEqual([404, false]);
    expect(await save('areaManager', newStore('X3', 'B', [areaManager.usergroup!]))).toEqual([404, false]);
    expect(await save('areaManager', newStore('X4', 'A', [areaManager.usergroup!, world.chains.A.usergroup]))).toEqual([201, true]);
  });

  it('assigns only one\'s own groups or store-user groups of one\'s stores, and links a new store to one of one\'s groups (403)', async () => {
    const { areaManager, caseManager } = world.callers;
    // The case manager's group (20) is linked to the area manager's store, but more privileged.
    expect(await save('areaManager', newStore('Y1', 'A', [areaManager.usergroup!, caseManager.usergroup!]))).toEqual([403, false]);
    // The area manager's group (30) is less privileged than a case manager, but neither theirs nor a store-user group.
    expect(await save('caseManager', newStore('Y2', 'A', [caseManager.usergroup!, areaManager.usergroup!]))).toEqual([403, false]);
    // A store-user group of their store, but none of their own: they could not see what they create.
    expect(await save('caseManager', newStore('Y3', 'A', [world.chains.A.usergroup]))).toEqual([403, false]);
    expect(await save('caseManager', newStore('Y4', 'A', [caseManager.usergroup!]))).toEqual([201, true]);
  });
});
