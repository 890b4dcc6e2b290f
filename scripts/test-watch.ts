// `npm run test:watch -- tests/e2e/graphs.test.ts`: one test file in vitest's watch mode, in the
// project that runs it in the suite (tests/support/projects.ts), with that project's database and
// console. The file runs again when it or what it imports changes; a browser or process test also
// runs again when a console source (app/, …) changes, against a console rebuilt from them
// (tests/support/global-server.ts): the build is reused while the sources are unchanged.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { E2E_SCALE, E2E_SYSTEM, UNIT_CRASH } from '../tests/support/projects';

function projectOf(file: string): string {
  if (E2E_SYSTEM.includes(file)) return 'e2e-system';
  if (E2E_SCALE.includes(file)) return 'e2e-scale';
  if (UNIT_CRASH.includes(file)) return 'unit-crash';
  if (file.startsWith('tests/e2e/')) return 'e2e-console';
  if (file.startsWith('tests/api/')) return 'api';
  if (file.startsWith('tests/unit/')) return 'unit';
  throw new Error(`${file} is not a test file of the suite (tests/unit, tests/api or tests/e2e)`);
}

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: npm run test:watch -- tests/<unit|api|e2e>/<file>.test.ts [vitest options]');
  process.exit(2);
}
const relative = path.relative(process.cwd(), path.resolve(file)).split(path.sep).join('/');
const project = projectOf(relative);
console.log(`[test:watch] ${relative} in the ${project} project`);
const child = spawn(path.resolve('node_modules/.bin/vitest'), ['watch', '--project', project, relative, ...rest], {
  stdio: 'inherit',
  // vitest.config.ts reads it: a change under app/ reruns the file (its console is rebuilt first)
  env: { ...process.env, ONRECO_TEST_WATCH: '1' },
});
child.on('close', (code) => process.exit(code ?? 1));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
