// onreco db migrate | status | seed | partitions: for operators, on DATABASE_URL directly (not
// through the API). The database modules load only when a db command runs, so the other
// commands start fast.
import { Command } from 'commander';
import { CliError } from '../errors';
import { print, tableText, withProgress } from '../output';
import { type CliContext, examples, positiveInteger, withJson } from './common';

async function withDatabase<T>(ctx: CliContext, work: (db: import('../../app/db/db.server').Db) => Promise<T>): Promise<T> {
  const url = ctx.env.DATABASE_URL;
  if (!url) throw new CliError('set DATABASE_URL to the database to act on (e.g. postgres://user@host:5432/onreco)');
  const { createDb } = await import('../../app/db/db.server');
  const db = createDb(url, 4);
  try {
    return await work(db);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`database: ${(error as Error).message}`);
  } finally {
    await db.destroy();
  }
}

const MONTH_MS = 31 * 86_400_000;

export function dbCommand(ctx: CliContext): Command {
  const migrate = new Command('migrate').description('run the pending migrations').action(() =>
    withDatabase(ctx, async (db) => {
      const { migrateToLatest } = await import('../../app/db/migrate.server');
      const ran = await withProgress(ctx, 'Migrating', () => migrateToLatest(db));
      ctx.stdout(ran.length === 0 ? 'The database is up to date.\n' : `Ran ${ran.length} migration(s):\n${ran.map((name) => `  ${name}\n`).join('')}`);
    }),
  );
  const status = withJson(new Command('status').description('the migrations of this version and whether each has run')).action((options) =>
    withDatabase(ctx, async (db) => {
      const { migrationStatus } = await import('../../app/db/migrate.server');
      const migrations = await migrationStatus(db);
      const pending = migrations.filter((migration) => !migration.executedAt).length;
      print(ctx, options, { migrations, pending }, () =>
        tableText(migrations, [
          { header: 'MIGRATION', value: (migration) => migration.name },
          { header: 'RAN AT', value: (migration) => migration.executedAt?.toISOString() ?? 'pending' },
        ]) + (pending === 0 ? 'Up to date.\n' : `${pending} pending: run \`onreco db migrate\`.\n`),
      );
    }),
  );
  const seed = new Command('seed')
    .description('seed the live demo chain into an empty database (stores, sensors, users, readings)')
    .requiredOption('--demo', 'the demo chain (the only seed there is)')
    .option('--days <n>', 'days of one-minute readings', positiveInteger('--days'), 7)
    .action((options: { days: number }) =>
      withDatabase(ctx, async (db) => {
        const { isDatabaseEmpty, seedDemoChain } = await import('../../app/demo/seed.server');
        const { DEMO_DEFAULT_PASSWORD } = await import('../../app/domain/demo');
        if (!(await isDatabaseEmpty(db))) throw new CliError('the database has stores or users already: the demo chain is seeded only into an empty one');
        const { seedProgressLines } = await import('../../app/demo/seed-progress');
        const summary = await withProgress(ctx, 'Seeding the demo chain', (report) =>
          seedDemoChain(db, {
            days: options.days,
            password: ctx.env.ONRECO_DEMO_PASSWORD ?? DEMO_DEFAULT_PASSWORD,
            now: new Date(),
            onProgress: seedProgressLines((line) => report(line.replace(/^demo chain: /, '')), { everyMs: 1000 }),
          }),
        );
        ctx.stdout(`Seeded ${summary.stores} stores, ${summary.sensors} sensors, ${summary.users} users, ${summary.measurements} readings.\n`);
      }),
    );
  const partitions = new Command('partitions')
    .description('create the readings\' month partitions ahead of time (the worker does it daily too)')
    .option('--months <n>', 'months ahead', positiveInteger('--months'), 3)
    .action((options: { months: number }) =>
      withDatabase(ctx, async (db) => {
        const { ensureMeasurementPartitions } = await import('../../app/models/measurement-partitions.server');
        const now = new Date();
        const until = new Date(now.getTime() + options.months * MONTH_MS);
        await ensureMeasurementPartitions(db, now, until);
        ctx.stdout(`Readings partitions exist from this month to ${until.toISOString().slice(0, 7)}.\n`);
      }),
    );
  return new Command('db')
    .description('the database itself, on DATABASE_URL (operators)')
    .addCommand(examples(migrate, 'DATABASE_URL=postgres://onreco@db:5432/onreco onreco db migrate'))
    .addCommand(examples(status, 'onreco db status --json'))
    .addCommand(examples(seed, 'onreco db seed --demo --days 3'))
    .addCommand(examples(partitions, 'onreco db partitions --months 6'));
}
