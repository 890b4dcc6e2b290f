// The distribute step (docs/scale-out.md): spreads the migrated schema over a Citus cluster as
// app/db/distribution.ts declares, from the coordinator's DATABASE_URL:
//   npx tsx scripts/distribute.ts          runs the Citus calls (nothing without the citus extension)
//   npx tsx scripts/distribute.ts --plan   prints them and changes nothing
import { getDb } from '../app/db/db.server';
import { distribute, distributionProblems, distributionSteps, readSchemaShape } from '../app/db/distribute.server';

const db = getDb();

async function plan(): Promise<number> {
  const shape = await readSchemaShape(db);
  const problems = distributionProblems(shape);
  for (const problem of problems) console.error(`distribute: ${problem}`);
  for (const step of distributionSteps(shape)) console.log(`${step.sql};`);
  return problems.length > 0 ? 1 : 0;
}

async function run(): Promise<number> {
  const outcome = await distribute(db, (statement) => console.log(`${statement};`));
  switch (outcome.kind) {
    case 'absent':
      console.log('distribute: the citus extension is not installed in this database; nothing was changed.');
      return 0;
    case 'refused':
      for (const problem of outcome.problems) console.error(`distribute: ${problem}`);
      console.error('distribute: the schema does not match app/db/distribution.ts; nothing was changed.');
      return 1;
    case 'done':
      console.log(`distribute: ${outcome.ran.length} calls run, ${outcome.skipped.length} skipped as done already.`);
      return 0;
  }
}

(process.argv.includes('--plan') ? plan() : run())
  .then((code) => {
    process.exitCode = code;
  })
  .finally(() => db.destroy());
