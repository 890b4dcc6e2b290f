import { execFile } from 'node:child_process';
import path from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distribute, distributionProblems, distributionSteps, readSchemaShape } from '~/db/distribute.server';
import { CHAIN_WIDE_QUERIES, COLOCATION_ANCHOR, tablesPlaced } from '~/db/distribution';
import { API_CALLS } from '~/domain/api';
import { JOBS } from '~/jobs/worker.server';
import { logger } from '~/services/logger.server';
import { SIDES, buildAccessWorld } from '../fixtures/access-world';
import { CONSOLE_DIRS, CONSOLE_ROUTES, consoleOutcome, consoleRequestOf, contextOf, cookieOf, derivedOutcome, keepWorldState, meetsOutcome, requestOf, samplesOf, send, sidesOf } from '../support/access-matrix';
import { call } from '../support/requests';
import { resetDb, testDb } from '../support/db';

// Issue 17 part 5: the schema as app/db/distribution.ts declares it can be distributed by
// store_id on Citus, checked on plain PostgreSQL: the catalog's keys and foreign keys, and the
// queries the app runs (every /on-reco call of the registry and every console store page and
// resource, by every caller allowed to make it, and every worker job), each EXPLAINed, every scan of a distributed table filtered by store_id.

const db = testDb();
const ROUTES = path.resolve(__dirname, '../../app/routes');
type Handler = Parameters<typeof call>[0];

/** scripts/distribute.ts run as documented, against the suite's database. */
function distributeCommand(args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', path.resolve('scripts/distribute.ts'), ...args], { env: { ...process.env, LOG_LEVEL: 'warn' } }, (error, stdout) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? (error.code as number) : 0, stdout });
    });
  });
}

describe('the catalog against the declaration', () => {
  // The readings' bucket triggers are gone (their writers keep the buckets, decision 283): any
  // trigger, key or undeclared table fails here.
  it('declares every table, and Citus would accept every key and foreign key of the schema', async () => {
    expect(distributionProblems(await readSchemaShape(db))).toEqual([]);
  });

  describe('fails on a schema that breaks a rule', () => {
    const SAMPLE = 'citus_rules_sample';
    beforeAll(async () => {
      await sql.raw(`drop schema if exists ${SAMPLE} cascade; create schema ${SAMPLE};
        create table ${SAMPLE}.shops (store_id varchar(20) primary key, code text unique);
        create table ${SAMPLE}.things (store_id varchar(20) not null, thing_id int not null, serial text, primary key (store_id, thing_id));
        create unique index things_serial on ${SAMPLE}.things (serial);
        create table ${SAMPLE}.events (store_id varchar(20) not null, thing_id int, foreign key (store_id, thing_id) references ${SAMPLE}.things);
        create table ${SAMPLE}.notes (note_id int primary key, thing_store varchar(20), thing_id int, foreign key (thing_store, thing_id) references ${SAMPLE}.things);
        create table ${SAMPLE}.readings (store_id varchar(20), thing_id int not null, at timestamptz not null, primary key (thing_id, at)) partition by range (at);
        create table ${SAMPLE}.lonely (id int primary key);`).execute(db);
    });
    afterAll(async () => void (await sql.raw(`drop schema if exists ${SAMPLE} cascade`).execute(db)));

    it('names each broken rule', async () => {
      const declared = {
        shops: { placement: 'reference', why: '' },
        things: { placement: 'distributed', why: '' },
        events: { placement: 'distributed', why: '' },
        notes: { placement: 'reference', why: '' },
        readings: { placement: 'distributed', why: '' },
        sensors: { placement: 'distributed', why: 'the anchor, absent here' },
      } as const;
      const problems = distributionProblems(await readSchemaShape(db, SAMPLE), declared);
      const expected = [
        'lonely: not declared',
        'sensors: declared but not in the schema',
        'readings: store_id may be null',
        'things: the unique key things_serial (serial) lacks store_id',
        'readings: the unique key readings_pkey (thing_id, at) lacks store_id',
        'notes.notes_thing_store_thing_id_fkey → things: a reference table may not refer to a distributed one',
      ];
      for (const problem of expected) expect(problems.some((found) => found.startsWith(problem)), `${problem} in ${problems.join('\n')}`).toBe(true);
      // events → things matches store_id to store_id: no problem; shops.code is unique on a reference table: no problem.
      expect(problems.filter((problem) => /events|shops/.test(problem))).toEqual([]);

      const crossed = { ...declared, events: { placement: 'distributed', why: '' } } as const;
      await sql.raw(`alter table ${SAMPLE}.events rename column store_id to shop; alter table ${SAMPLE}.events add column store_id varchar(20) not null default 'x'`).execute(db);
      const afterRename = distributionProblems(await readSchemaShape(db, SAMPLE), crossed);
      expect(afterRename.some((problem) => problem.startsWith('events.events_store_id_thing_id_fkey → things: a foreign key between distributed tables must match store_id'))).toBe(true);
      await sql.raw(`alter table ${SAMPLE}.events drop column store_id`).execute(db);
      const missing = distributionProblems(await readSchemaShape(db, SAMPLE), crossed);
      expect(missing).toContain('events: distributed but has no store_id column');
    });
  });

  it('plans reference tables before the distributed ones, parents first, every distributed table co-located with the anchor', async () => {
    const shape = await readSchemaShape(db);
    const steps = distributionSteps(shape).map((step) => step.sql);
    const at = (fragment: string) => steps.findIndex((step) => step.includes(fragment));
    for (const table of tablesPlaced('reference')) expect(at(`create_reference_table('${table}')`), table).toBeGreaterThanOrEqual(0);
    for (const table of tablesPlaced('distributed')) expect(at(`create_distributed_table('${table}'`), table).toBeGreaterThan(at("create_reference_table('stores')"));
    expect(steps[at(`create_distributed_table('${COLOCATION_ANCHOR}'`)]).toContain("colocate_with => 'none'");
    expect(steps.filter((step) => step.includes(`colocate_with => '${COLOCATION_ANCHOR}'`))).toHaveLength(tablesPlaced('distributed').length - 1);
    for (const key of shape.foreignKeys) {
      const [child, parent] = [at(`table('${key.child}'`), at(`table('${key.parent}'`)];
      if (child >= 0 && parent >= 0 && !steps.some((step) => step.includes(`drop constraint ${key.name}`))) expect(parent, `${key.name}: ${key.parent} before ${key.child}`).toBeLessThan(child);
    }
  });

  it('says so and changes nothing without the citus extension', async () => {
    const before = await readSchemaShape(db);
    expect(await distribute(db)).toEqual({ kind: 'absent' });
    const step = await distributeCommand([]);
    expect(step).toMatchObject({ code: 0, stdout: expect.stringContaining('the citus extension is not installed in this database; nothing was changed') });
    expect(await readSchemaShape(db)).toEqual(before);
    const plan = await distributeCommand(['--plan']);
    expect(plan.code).toBe(0);
    expect(plan.stdout.split('\n').filter((line) => line.startsWith('select create_distributed_table('))).toHaveLength(tablesPlaced('distributed').length);
  }, 60_000);
});

// ---- the queries the app runs ----

interface Recorded {
  sql: string;
  parameters: unknown[];
  origin: string;
}

/** Where a query came from: the innermost named function under app/ in its (async) stack, as path#function. */
function originOf(stack: string): string {
  for (const line of stack.split('\n')) {
    const frame = /at (?:async )?([\w$.]+) \(.*?\/app\/([\w+./$[\]-]+\.tsx?):\d+/.exec(line);
    if (frame && !frame[1].startsWith('Object.') && frame[1] !== '<anonymous>') return `${frame[2]}#${frame[1].replace(/^Module\./, '')}`;
  }
  return 'outside app/';
}

/** Records every query sent through node-postgres while `body` runs, but for those `body` runs under `aside` (the test's own). */
async function recording(body: (aside: <T>(work: () => Promise<T>) => Promise<T>) => Promise<void>): Promise<Recorded[]> {
  const recorded: Recorded[] = [];
  let paused = false;
  const aside = async <T>(work: () => Promise<T>): Promise<T> => {
    paused = true;
    try {
      return await work();
    } finally {
      paused = false;
    }
  };
  const query = pg.Client.prototype.query;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (!paused && typeof args[0] === 'string') recorded.push({ sql: args[0], parameters: Array.isArray(args[1]) ? args[1] : [], origin: originOf(new Error().stack ?? '') });
    return (query as (...all: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await body(aside);
  } finally {
    pg.Client.prototype.query = query;
    Error.stackTraceLimit = limit;
  }
  return recorded;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  Plans?: PlanNode[];
  [condition: string]: unknown;
}

const CONDITIONS = ['Index Cond', 'Filter', 'Recheck Cond', 'Hash Cond', 'Merge Cond', 'Join Filter', 'TID Cond'];
const conditionsOf = (node: PlanNode) => CONDITIONS.map((name) => node[name]).filter((value): value is string => typeof value === 'string');
/** The text of a condition without casts, so that ((s.store_id)::text = ($1)::text) reads s.store_id = $1. */
const bare = (condition: string) => condition.replace(/::[a-z ]+(\(\d+\))?(\[\])?/g, '').replace(/[()]/g, ' ');
/** store_id compared with a value: a constant, a parameter, a list, or another table's store_id. */
const pinsStore = (condition: string, alias: string) =>
  new RegExp(`(^|[^\\w.])(${alias}\\.)?store_id\\s*=\\s*(ANY\\b|'|\\$\\d)`).test(bare(condition)) ||
  new RegExp(`(^|\\s)(\\$\\d|'[^']*')\\s*=\\s*(${alias}\\.)?store_id\\b`).test(bare(condition));
const joinsStore = (condition: string, alias: string) => new RegExp(`\\b(${alias}\\.)?store_id\\s*=\\s*\\w+\\.store_id|\\w+\\.store_id\\s*=\\s*(${alias}\\.)?store_id\\b`).test(bare(condition));

/**
 * The distributed tables a plan scans without store_id: a scan passes when its own conditions
 * (or its bitmap index's) pin store_id to a value, or when a join above it matches store_id
 * and some scan of the query is pinned (the join then stays on one store's node).
 */
function unscopedScans(plan: PlanNode, rootOf: (relation: string) => string): string[] {
  const scans: { table: string; pinned: boolean; joined: boolean }[] = [];
  const walk = (node: PlanNode, joins: string[]) => {
    const own = [...conditionsOf(node), ...(node['Node Type'] === 'Bitmap Heap Scan' ? (node.Plans ?? []).flatMap(conditionsOf) : [])];
    // The table an insert, update or delete writes (ModifyTable) is routed by the row's store_id or by the scan below it.
    if (node['Relation Name'] && node['Node Type'] !== 'ModifyTable') {
      const alias = (node.Alias ?? node['Relation Name']).replace(/[^\w]/g, '');
      scans.push({
        table: rootOf(node['Relation Name']),
        pinned: own.some((condition) => pinsStore(condition, alias)),
        joined: [...own, ...joins].some((condition) => joinsStore(condition, alias)),
      });
    }
    const below = node['Relation Name'] ? joins : [...joins, ...conditionsOf(node)];
    for (const child of node.Plans ?? []) walk(child, below);
  };
  walk(plan, []);
  const distributed = new Set(tablesPlaced('distributed'));
  const anyPinned = scans.some((scan) => scan.pinned);
  return scans.filter((scan) => distributed.has(scan.table) && !scan.pinned && !(scan.joined && anyPinned)).map((scan) => scan.table);
}

const EXPLAINABLE = /^\s*(select|insert|update|delete|with)\b/i;

describe('the queries the app runs, EXPLAINed', () => {
  let recorded: Recorded[] = [];
  let calls = 0;
  /** Allowed cases that did not succeed: their queries would be missing from the walk. */
  const missed: string[] = [];

  beforeAll(async () => {
    await resetDb();
    const world = await buildAccessWorld(db);
    const state = await keepWorldState(db);
    try {
      recorded = await recording(async (aside) => {
        for (const call of API_CALLS) {
          for (const sample of samplesOf(call)) {
            for (const sides of sidesOf(call, sample)) {
              for (const caller of Object.values(world.callers)) {
                const context = contextOf(call, world, caller, sides, String(++calls), new Set());
                if (!(sample.rule ? sample.rule(context, derivedOutcome(call, sample, context)) : derivedOutcome(call, sample, context)).allowed) continue;
                const response = await send(call, requestOf(call, sample.input(context), world, caller.token));
                if (!response.ok) missed.push(`${call.id} as ${caller.name}: ${response.status}`);
                await response.body?.cancel();
                if (call.method !== 'GET') await aside(() => state.restore());
              }
            }
          }
        }
        // The console's store pages and resources, loader and action, on each allowed caller's session.
        const cookies = new Map(await Promise.all(Object.values(world.callers).map(async (caller) => [caller.name, await aside(() => cookieOf(caller))] as const)));
        for (const [key, route] of Object.entries(CONSOLE_ROUTES)) {
          if (route.public || key === 'resources/events.ts') continue; // static files; the event stream never ends
          const [folder, file] = key.split('/');
          const module = (await import(path.join(ROUTES, CONSOLE_DIRS[folder as keyof typeof CONSOLE_DIRS], file))) as { loader?: Handler; action?: Handler };
          for (const kind of ['loader', 'action'] as const) {
            const handler = module[kind];
            for (const side of handler ? SIDES : []) {
              for (const caller of Object.values(world.callers)) {
                const outcome = consoleOutcome(route, caller, side);
                if (!outcome.allowed) continue;
                const { request, params } = consoleRequestOf(key, route, kind, world.chains[side], world, cookies.get(caller.name));
                calls += 1;
                const response = await call(handler!, request, params);
                if (!meetsOutcome(outcome, response)) missed.push(`${key} ${kind} as ${caller.name}: ${response.status}`);
                await response.body?.cancel();
                if (kind === 'action') await aside(() => state.restore());
              }
            }
          }
        }
        for (const job of JOBS) await job.run({ db, now: new Date(), log: logger.child({ job: job.name }) });
      });
    } finally {
      await state.drop();
    }
  }, 600_000);

  afterAll(() => resetDb());

  const planOf = async (text: string, parameters: unknown[] = []) =>
    (await db.executeQuery<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(CompiledQuery.raw(`explain (format json) ${text}`, parameters))).rows[0]['QUERY PLAN'][0].Plan;

  it('tells a store\'s query from a chain-wide one and from a join that misses store_id', async () => {
    const same = (relation: string) => relation;
    const scoped = [
      ['select * from sensors where store_id = $1', ['S1']],
      ['select * from sensors s join sensor_states ss on ss.store_id = s.store_id and ss.equipment_id = s.equipment_id where s.store_id = $1', ['S1']],
      ['select * from sensors s join alert_history ah on ah.store_id = s.store_id where s.store_id = any($1::varchar[])', [['S1', 'S2']]],
      ['update sensor_states set status = 0 where store_id = $1 and equipment_id = $2', ['S1', 1]],
      ["insert into measurements (store_id, equipment_id, measured_at) values ('S1', 1, now())", []],
    ] as const;
    for (const [text, parameters] of scoped) expect(unscopedScans(await planOf(text, [...parameters]), same), text).toEqual([]);
    const chainWide = [
      ['select * from sensor_states where status > 0', [], ['sensor_states']],
      ['select * from sensors where equipment_id = $1', [1], ['sensors']],
      ['select * from sensors s join alert_history ah on ah.equipment_id = s.equipment_id where s.store_id = $1', ['S1'], ['alert_history']],
      ['delete from gateway_health_history where received_at < now()', [], ['gateway_health_history']],
    ] as const;
    for (const [text, parameters, tables] of chainWide) expect(unscopedScans(await planOf(text, [...parameters]), same), text).toEqual(tables);
  });

  it('scans every distributed table by store_id, but for the chain-wide queries declared with their reason', async () => {
    const { rows } = await sql<{ relation: string; root: string }>`
      select c.relname as relation, r.relname as root from pg_class c join pg_class r on r.oid = pg_partition_root(c.oid)
      where c.relnamespace = 'public'::regnamespace and c.relispartition`.execute(db);
    const roots = new Map(rows.map((row) => [row.relation, row.root]));
    const rootOf = (relation: string) => roots.get(relation) ?? relation;

    const seen = new Map<string, Recorded>();
    for (const query of recorded) if (EXPLAINABLE.test(query.sql) && !seen.has(`${query.origin}\n${query.sql}`)) seen.set(`${query.origin}\n${query.sql}`, query);
    const offenders = new Map<string, string[]>();
    const origins = new Set<string>();
    const unexplained: string[] = [];
    for (const query of seen.values()) {
      let plan: PlanNode;
      try {
        plan = await planOf(query.sql, query.parameters);
      } catch (error) {
        unexplained.push(`${query.origin}: ${(error as Error).message}\n  ${query.sql.slice(0, 200)}`);
        continue;
      }
      const tables = unscopedScans(plan, rootOf);
      origins.add(query.origin);
      if (tables.length > 0) offenders.set(query.origin, [...(offenders.get(query.origin) ?? []), `${[...new Set(tables)].join(', ')}: ${query.sql.replace(/\s+/g, ' ').slice(0, 300)}`]);
    }
    console.log(`distribution: ${recorded.length} queries recorded (${seen.size} distinct) from ${calls} API and console cases and ${JOBS.length} jobs; ${offenders.size} chain-wide origins`);
    expect(missed).toEqual([]);
    expect(unexplained).toEqual([]);
    const undeclared = [...offenders].filter(([origin]) => !CHAIN_WIDE_QUERIES[origin]).map(([origin, queries]) => `${origin}\n  ${queries.join('\n  ')}`);
    expect(undeclared, 'queries that scan a distributed table without store_id (fix them, or declare them chain-wide in app/db/distribution.ts)').toEqual([]);
    const stale = Object.keys(CHAIN_WIDE_QUERIES).filter((origin) => !offenders.has(origin));
    expect(stale, 'declared chain-wide but not seen scanning without store_id').toEqual([]);
  });
});
