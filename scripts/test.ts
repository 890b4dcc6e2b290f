// `npm test`: type-check, then every vitest project (unit, api, e2e) in one run.
import { spawnSync } from 'node:child_process';

function run(command: string, args: string[]): void {
  const { status } = spawnSync(command, args, { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}

run('npx', ['tsc', '--noEmit']);
run('npx', ['vitest', 'run', ...process.argv.slice(2)]);
