// The deployed form: gateway/deploy/build.ts bundles the daemon for plain node (the systemd unit
// runs it). It must keep working as the code changes.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildGateway } from '../../../gateway/deploy/build';

const ROOT = path.resolve(__dirname, '../../..');

describe('gateway bundle', () => {
  it('builds and runs on plain node', async () => {
    // Inside the install tree (its packages stay external), one file per run: checkouts may share node_modules.
    const bundle = await buildGateway(path.join(ROOT, `node_modules/.cache/onreco-gateway/test-bundle-${process.pid}.mjs`));
    try {
      const out = execFileSync(process.execPath, [bundle, 'decode', '--manufacturer-data', '0499:0512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F'], { encoding: 'utf8' });
      expect(JSON.parse(out)).toEqual({ format: 'ruuvi-5', temperature: 24.3, humidity: 53.49, battery_mv: 2977 });
    } finally {
      rmSync(bundle, { force: true });
    }
  }, 30_000);
});
