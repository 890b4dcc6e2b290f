// The coded-concepts rule of eslint.config.js: a coded field compared with a number literal is
// refused on every surface (app/, cli/, scripts/); its owner's constants, predicates and an HTTP
// status pass. Checked on made-up files.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });
const DECLARED = 'declare const store: { store_status: number; working_state: number | null }; declare const sensor: { status: number }; declare const response: { status: number }; declare const workingState: number; declare const user: { alert_filter: number; authority: number }; declare const STORE_STATUS: { warning: 3 };';

async function refusals(file: string, expression: string): Promise<number> {
  const [result] = await eslint.lintText(`${DECLARED}\nexport const probe = ${expression};\n`, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').length;
}

describe('coded concepts (eslint.config.js)', () => {
  it.each(['app/routes/_app+/example.tsx', 'cli/commands/example.ts', 'app/services/example.server.ts'])('%s: refuses number literals, lets constants and HTTP statuses through', async (file) => {
    for (const refused of ['store.store_status === 3', '2 === store.working_state', 'workingState !== 1', 'sensor.status === 2', 'user.alert_filter === 0', 'user.authority == 101']) {
      expect(await refusals(file, refused), refused).toBe(1);
    }
    for (const allowed of ['store.store_status === STORE_STATUS.warning', 'response.status === 401', 'store.working_state === null']) {
      expect(await refusals(file, allowed), allowed).toBe(0);
    }
  }, 60_000);
});
