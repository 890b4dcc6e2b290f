// deploy/'s systemd units (docs/operations.md) verify with systemd's own checker, and start the
// processes npm start starts: the same scripts, the reports lane with its node flags.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROLLING_RESTART_SIGNAL } from '~/http/server/web-cluster.server';
import { WORKER_NODE_FLAGS } from '~/jobs/worker-flags';

const DEPLOY = path.resolve('deploy');
const units = readdirSync(DEPLOY).filter((name) => /\.(service|timer|target)$/.test(name));
const haveSystemd = spawnSync('systemd-analyze', ['--version']).status === 0;

const execStart = (unit: string) => readFileSync(path.join(DEPLOY, unit), 'utf8').match(/^ExecStart=(.*)$/m)![1];

describe('deploy/ systemd units', () => {
  it.skipIf(!haveSystemd)('pass systemd-analyze verify without a warning', () => {
    const result = spawnSync('systemd-analyze', ['verify', '--man=no', ...units.map((unit) => path.join(DEPLOY, unit))], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('restart every long-running process for ever', () => {
    for (const unit of ['onreco-web.service', 'onreco-worker-alerts.service', 'onreco-worker-reports.service']) {
      const text = readFileSync(path.join(DEPLOY, unit), 'utf8');
      expect(text, unit).toMatch(/^Restart=always$/m);
      expect(text, unit).toMatch(/^StartLimitIntervalSec=0$/m);
      expect(text, unit).toMatch(/^EnvironmentFile=\/etc\/onreco\/onreco.env$/m);
      expect(text, unit).toMatch(/^MemoryMax=/m);
      expect(text, unit).toMatch(/^Requires=onreco-migrate.service$/m);
    }
  });

  it('reload the web unit by a rolling restart of its processes', () => {
    const text = readFileSync(path.join(DEPLOY, 'onreco-web.service'), 'utf8');
    expect(text).toMatch(new RegExp(`^ExecReload=/bin/kill -${ROLLING_RESTART_SIGNAL.replace('SIG', '')} \\$MAINPID$`, 'm'));
  });

  it('start the scripts npm start starts, each worker lane with its node flags', () => {
    for (const unit of units.filter((name) => name.endsWith('.service') && name !== 'onreco-health.service')) {
      const script = execStart(unit).match(/scripts\/[\w-]+\.ts/)![0];
      expect(existsSync(script), `${unit}: ${script}`).toBe(true);
    }
    for (const lane of ['alerts', 'reports'] as const) {
      expect(execStart(`onreco-worker-${lane}.service`)).toBe(['/usr/bin/node', ...WORKER_NODE_FLAGS[lane], '--import', 'tsx', 'scripts/worker.ts', lane].join(' '));
    }
  });
});
