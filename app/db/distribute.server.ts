import { sql } from 'kysely';
import type { Db } from './db.server';
import { COLOCATION_ANCHOR, DISTRIBUTION_COLUMN, type Placement, TABLES, type TableDistribution } from './distribution';

// The Citus side of app/db/distribution.ts: what the catalog must look like for the declaration
// to hold (the rules Citus enforces when it distributes), and the calls that distribute the
// schema (scripts/distribute.ts). Read from pg_catalog, so the rules are checked on plain
// PostgreSQL by tests/api/distribution.test.ts long before a cluster exists.

export interface ForeignKey {
  name: string;
  child: string;
  parent: string;
  columns: string[];
  parentColumns: string[];
  definition: string;
}

export interface UniqueKey {
  table: string;
  name: string;
  /** Null for an expression's position (lower(mailaddress1)). */
  columns: (string | null)[];
}

export interface SchemaShape {
  /** Tables and partitioned tables, partitions left out (they follow their parent). */
  tables: string[];
  /** Each table's distribution column, if it has one: its type and whether it may be null. */
  distributionColumns: Record<string, { type: string; nullable: boolean }>;
  uniqueKeys: UniqueKey[];
  foreignKeys: ForeignKey[];
  /** User triggers, by table: Citus distributes no table that has one (decision 225). */
  triggers: { table: string; name: string }[];
}

/** The shape of `schema`'s tables, keys and foreign keys. */
export async function readSchemaShape(db: Db, schema = 'public'): Promise<SchemaShape> {
  const { rows: tables } = await sql<{ name: string }>`
    select c.relname as name from pg_class c
    where c.relnamespace = ${schema}::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
    order by c.relname`.execute(db);
  const { rows: columns } = await sql<{ table: string; type: string; nullable: boolean }>`
    select c.relname as table, format_type(a.atttypid, a.atttypmod) as type, not a.attnotnull as nullable
    from pg_attribute a join pg_class c on c.oid = a.attrelid
    where c.relnamespace = ${schema}::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
      and a.attname = ${DISTRIBUTION_COLUMN} and not a.attisdropped`.execute(db);
  const { rows: uniqueKeys } = await sql<UniqueKey>`
    select c.relname as table, ic.relname as name,
      array(select a.attname::text from unnest(i.indkey::int2[]) with ordinality k(attnum, n)
            left join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum order by k.n) as columns
    from pg_index i join pg_class c on c.oid = i.indrelid join pg_class ic on ic.oid = i.indexrelid
    where c.relnamespace = ${schema}::regnamespace and c.relkind in ('r', 'p') and not c.relispartition and i.indisunique
    order by c.relname, ic.relname`.execute(db);
  const { rows: foreignKeys } = await sql<ForeignKey>`
    select k.conname as name, child.relname as child, parent.relname as parent,
      array(select a.attname::text from unnest(k.conkey) with ordinality u(attnum, n)
            join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum order by u.n) as columns,
      array(select a.attname::text from unnest(k.confkey) with ordinality u(attnum, n)
            join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.attnum order by u.n) as "parentColumns",
      pg_get_constraintdef(k.oid) as definition
    from pg_constraint k join pg_class child on child.oid = k.conrelid join pg_class parent on parent.oid = k.confrelid
    where k.contype = 'f' and k.connamespace = ${schema}::regnamespace and not child.relispartition
    order by child.relname, k.conname`.execute(db);
  const { rows: triggers } = await sql<{ table: string; name: string }>`
    select c.relname as table, t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where c.relnamespace = ${schema}::regnamespace and not t.tgisinternal and not c.relispartition
    order by c.relname, t.tgname`.execute(db);
  return {
    tables: tables.map((row) => row.name),
    distributionColumns: Object.fromEntries(columns.map(({ table, type, nullable }) => [table, { type, nullable }])),
    uniqueKeys,
    foreignKeys,
    triggers,
  };
}

/**
 * Where the declaration and the schema part, or where Citus would refuse the schema: an
 * undeclared table; a distributed table without a non-null store_id of the one type; a primary
 * or unique key of a distributed table without store_id; a foreign key between distributed
 * tables that does not match store_id to store_id; a foreign key into a distributed table from
 * any other, or out of one to a coordinator table; a reference table referring to a coordinator
 * table. Empty when the schema can be distributed as declared.
 */
export function distributionProblems(shape: SchemaShape, tables: Readonly<Record<string, TableDistribution>> = TABLES): string[] {
  const problems: string[] = [];
  const placementOf = (table: string): Placement | undefined => tables[table]?.placement;
  for (const table of shape.tables) if (!placementOf(table)) problems.push(`${table}: not declared in app/db/distribution.ts`);
  for (const table of Object.keys(tables)) if (!shape.tables.includes(table)) problems.push(`${table}: declared but not in the schema`);
  const distributed = shape.tables.filter((table) => placementOf(table) === 'distributed');
  const anchorType = shape.distributionColumns[COLOCATION_ANCHOR]?.type;
  for (const table of distributed) {
    const column = shape.distributionColumns[table];
    if (!column) problems.push(`${table}: distributed but has no ${DISTRIBUTION_COLUMN} column`);
    else {
      if (column.nullable) problems.push(`${table}: ${DISTRIBUTION_COLUMN} may be null (Citus refuses a null distribution value)`);
      if (anchorType && column.type !== anchorType) problems.push(`${table}: ${DISTRIBUTION_COLUMN} is ${column.type}, not ${anchorType} as in ${COLOCATION_ANCHOR} (no co-location)`);
    }
  }
  for (const key of shape.uniqueKeys) {
    if (placementOf(key.table) === 'distributed' && !key.columns.includes(DISTRIBUTION_COLUMN)) {
      problems.push(`${key.table}: the unique key ${key.name} (${key.columns.map((column) => column ?? '(expression)').join(', ')}) lacks ${DISTRIBUTION_COLUMN}`);
    }
  }
  for (const key of shape.foreignKeys) {
    const [child, parent] = [placementOf(key.child), placementOf(key.parent)];
    const label = `${key.child}.${key.name} → ${key.parent}`;
    if ((child === 'distributed' || child === 'reference') && key.definition.includes('ON UPDATE CASCADE')) {
      problems.push(`${label}: ON UPDATE CASCADE (Citus refuses it; no key a foreign key holds is ever updated)`);
    }
    if (child === 'distributed' && parent === 'distributed') {
      const at = key.columns.indexOf(DISTRIBUTION_COLUMN);
      if (at < 0 || key.parentColumns[at] !== DISTRIBUTION_COLUMN) problems.push(`${label}: a foreign key between distributed tables must match ${DISTRIBUTION_COLUMN} to ${DISTRIBUTION_COLUMN}`);
    } else if (parent === 'distributed') {
      problems.push(`${label}: a ${child ?? 'undeclared'} table may not refer to a distributed one (Citus refuses it)`);
    } else if (parent === 'coordinator' && child !== 'coordinator') {
      problems.push(`${label}: a ${child ?? 'undeclared'} table may not refer to a coordinator table`);
    }
  }
  for (const trigger of shape.triggers) {
    const placement = placementOf(trigger.table);
    if (placement === 'distributed' || placement === 'reference') problems.push(`${trigger.table}: the trigger ${trigger.name} (Citus distributes no table with a trigger)`);
  }
  return problems;
}

// ---- the distribute step ----

/** What a table is in Citus's metadata (citus_tables.citus_table_type), or plain when it is in none. */
export type CitusTableType = 'distributed' | 'reference' | 'local' | 'plain';

export interface DistributionStep {
  sql: string;
  /** Skipped when this table is of this type already (a re-run, or Citus made it so on its own). */
  table?: { name: string; becomes: CitusTableType };
  /** Run only when this foreign key is (drop) or is not (add) there. */
  constraint?: { name: string; exists: boolean };
  /** The clean-up after making a table: run only when the step before it ran. */
  afterMaking?: true;
}

/** Parents before children among `tables` (foreign keys); the keys that close a cycle come back apart. */
export function parentsFirst<Key extends Pick<ForeignKey, 'child' | 'parent'>>(tables: string[], keys: readonly Key[]): { ordered: string[]; cyclic: Key[] } {
  const ordered: string[] = [];
  const cyclic: Key[] = [];
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (ordered.includes(table)) return;
    visiting.add(table);
    for (const key of keys.filter((candidate) => candidate.child === table && candidate.parent !== table && tables.includes(candidate.parent))) {
      if (visiting.has(key.parent)) cyclic.push(key);
      else visit(key.parent);
    }
    visiting.delete(table);
    ordered.push(table);
  };
  for (const table of tables) visit(table);
  return { ordered, cyclic };
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * The Citus calls, in an order Citus accepts: reference tables parents first (a foreign-key
 * cycle, stores ↔ diagrams, is dropped before and added back after); the coordinator tables
 * that refer to a reference table into Citus's metadata (Citus local tables); then the anchor
 * and every other distributed table co-located with it, parents first.
 */
export function distributionSteps(shape: SchemaShape, tables: Readonly<Record<string, TableDistribution>> = TABLES): DistributionStep[] {
  const placed = (placement: Placement) => shape.tables.filter((table) => tables[table]?.placement === placement);
  const references = parentsFirst(placed('reference'), shape.foreignKeys);
  const linkedLocals = placed('coordinator').filter((table) => shape.foreignKeys.some((key) => key.child === table && tables[key.parent]?.placement === 'reference'));
  const distributed = parentsFirst([COLOCATION_ANCHOR, ...placed('distributed').filter((table) => table !== COLOCATION_ANCHOR)], shape.foreignKeys);
  const [anchor, ...others] = distributed.ordered;
  // Citus copies a table's rows to the shards and leaves the coordinator's own copy behind,
  // hidden: cleared at once, so the coordinator does not keep a second chain's worth of data.
  const make = (name: string, becomes: CitusTableType, call: string): DistributionStep[] => [
    { table: { name, becomes }, sql: `select ${call}` },
    ...(becomes === 'local' ? [] : [{ afterMaking: true as const, sql: `select truncate_local_data_after_distributing_table(${literal(name)})` }]),
  ];
  // Keys Citus cannot keep while their tables change kind: a cycle among reference tables, and
  // keys between distributed tables (a local child of a local parent blocks distributing the
  // parent). Each is dropped only while its child still has to change, and added back after.
  const around = (keys: readonly ForeignKey[], becomes: CitusTableType) => ({
    drop: keys.map((key) => ({ table: { name: key.child, becomes }, constraint: { name: key.name, exists: true }, sql: `alter table ${key.child} drop constraint ${key.name}` })),
    add: keys.map((key) => ({ constraint: { name: key.name, exists: false }, sql: `alter table ${key.child} add constraint ${key.name} ${key.definition}` })),
  });
  const cycle = around(references.cyclic, 'reference');
  const between = around(
    shape.foreignKeys.filter((key) => tables[key.child]?.placement === 'distributed' && tables[key.parent]?.placement === 'distributed'),
    'distributed',
  );
  return [
    ...cycle.drop,
    ...references.ordered.flatMap((table) => make(table, 'reference', `create_reference_table(${literal(table)})`)),
    ...cycle.add,
    ...linkedLocals.flatMap((table) => make(table, 'local', `citus_add_local_table_to_metadata(${literal(table)})`)),
    ...between.drop,
    ...make(anchor, 'distributed', `create_distributed_table(${literal(anchor)}, ${literal(DISTRIBUTION_COLUMN)}, colocate_with => 'none')`),
    ...others.flatMap((table) =>
      make(table, 'distributed', `create_distributed_table(${literal(table)}, ${literal(DISTRIBUTION_COLUMN)}, colocate_with => ${literal(COLOCATION_ANCHOR)})`),
    ),
    ...between.add,
  ];
}

/** Whether the citus extension is installed in this database. */
export async function citusInstalled(db: Db): Promise<boolean> {
  const { rows } = await sql<{ installed: boolean }>`select exists (select from pg_extension where extname = 'citus') as installed`.execute(db);
  return rows[0].installed;
}

/**
 * On Citus, runs this transaction's statements over several shards one shard after the other,
 * on one connection a worker: Citus refuses a write to a reference table (stores) after a
 * statement that ran on several shards at once in the same transaction, and the ingest writer's
 * batch does both (decision 220).
 */
export async function shardsOneAfterAnother(trx: Db): Promise<void> {
  await sql`set local citus.multi_shard_modify_mode to 'sequential'`.execute(trx);
}

/** Asked when the step comes: the run itself drops a cycle's key before adding it back. */
async function constraintExists(db: Db, name: string): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`select exists (select from pg_constraint where conname = ${name} and connamespace = 'public'::regnamespace) as found`.execute(db);
  return rows[0].found;
}

/** Also asked when the step comes: making a reference table turns the tables that refer to it into local ones. */
async function citusTableType(db: Db, table: string): Promise<CitusTableType> {
  const { rows } = await sql<{ type: CitusTableType }>`
    select citus_table_type as type from citus_tables where table_name = ${table}::regclass`.execute(db);
  return rows[0]?.type ?? 'plain';
}

export type DistributeOutcome =
  | { kind: 'absent' }
  | { kind: 'refused'; problems: string[] }
  | { kind: 'done'; ran: string[]; skipped: string[] };

/**
 * Distributes the schema as declared when citus is installed; without it, or when the schema
 * breaks the declaration's rules, changes nothing. A step whose table is already what the step
 * makes it is skipped, as is a truncate after it, so a run that stopped half-way can be run again
 * and a second run changes nothing.
 */
export async function distribute(db: Db, report: (line: string) => void = () => {}): Promise<DistributeOutcome> {
  if (!(await citusInstalled(db))) return { kind: 'absent' };
  const shape = await readSchemaShape(db);
  const problems = distributionProblems(shape);
  if (problems.length > 0) return { kind: 'refused', problems };
  const ran: string[] = [];
  const skipped: string[] = [];
  let madeByLastStep = false;
  for (const step of distributionSteps(shape)) {
    const wanted: boolean =
      (!step.table || (await citusTableType(db, step.table.name)) !== step.table.becomes) &&
      (!step.constraint || (await constraintExists(db, step.constraint.name)) === step.constraint.exists) &&
      (!step.afterMaking || madeByLastStep);
    madeByLastStep = wanted && !step.constraint && !step.afterMaking;
    if (!wanted) {
      skipped.push(step.sql);
      continue;
    }
    report(step.sql);
    await sql.raw(step.sql).execute(db);
    ran.push(step.sql);
  }
  return { kind: 'done', ran, skipped };
}
