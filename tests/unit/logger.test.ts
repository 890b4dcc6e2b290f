import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The log reads as JSON lines when stdout is a pipe or a file (log collectors) and as pino-pretty
// lines when it is a terminal (`npm start` watched by a person). `script` gives the child a terminal.

const probe = path.join(mkdtempSync(path.join(os.tmpdir(), 'onreco-log-')), 'probe.ts');
writeFileSync(probe, `import { logger } from ${JSON.stringify(path.resolve('app/services/logger.server.ts'))};\nlogger.info({ job: 'probe' }, 'probe line');\n`);
const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info' };

describe('the server log', () => {
  it('is one JSON object a line when stdout is not a terminal', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', probe], { env, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout.trim())).toMatchObject({ level: 30, service: 'onreco', job: 'probe', msg: 'probe line' });
  });

  it('is pino-pretty lines, not JSON, in a terminal', () => {
    const run = spawnSync('script', ['-qfc', `${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(probe)}`, '/dev/null'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(0);
    const text = run.stdout.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
    expect(text).toMatch(/\[\d{2}:\d{2}:\d{2}\] INFO: probe line/);
    expect(text).toContain('job: "probe"');
    expect(text).not.toContain('{"level"');
  });
});
