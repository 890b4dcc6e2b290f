// `npm run gateway:package` (gateway/deploy/package.ts): the Debian package holds the daemon with
// only its own dependencies, the service, the user, the D-Bus and polkit permissions, and what it
// installs runs: decode, then pair and upload a replayed capture to the protocol test peer.
import { execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, LIB_DIR, RELEASE_KEY_FILE } from '../../../gateway/deploy/package';
import { TestPeer } from './support/test-peer';

const FIXTURES = path.resolve(__dirname, '../../fixtures/gateway');
const MB = 1024 * 1024;

function run(file: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  // Asynchronous: the test peer answers from this process's event loop.
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe.runIf(process.arch === 'x64')('the gateway package (amd64)', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'gw-package-'));
  const releaseKey = generateKeyPairSync('ed25519');
  const publicPem = releaseKey.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  let deb = '';
  let root = '';
  beforeAll(async () => {
    writeFileSync(path.join(out, 'release-public.pem'), publicPem);
    const result = await buildPackage('amd64', out, { releaseKey: path.join(out, 'release-public.pem') });
    deb = result.deb!;
    root = path.join(out, 'root');
    execFileSync('dpkg-deb', ['-x', deb, root]);
  }, 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('declares Node 20 and BlueZ as dependencies and installs in well under 40 MB', () => {
    const info = execFileSync('dpkg-deb', ['-I', deb], { encoding: 'utf8' });
    expect(info).toMatch(/^ Package: onreco-gateway$/m);
    expect(info).toMatch(/^ Architecture: amd64$/m);
    expect(info).toMatch(/^ Depends: nodejs \(>= 20\), nodejs \(<< 21\), bluez \(>= 5\.55\), dbus, adduser$/m);
    const installedKb = Number(/^ Installed-Size: (\d+)$/m.exec(info)![1]);
    expect(installedKb * 1024).toBeLessThan(40 * MB);
    expect(execFileSync('dpkg-deb', ['-f', deb, 'Version'], { encoding: 'utf8' }).trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('holds the daemon, its own dependencies only, the unit, the user and the permissions', () => {
    const files = execFileSync('dpkg-deb', ['-c', deb], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => line.split(/\s+/).slice(5).join(' ').replace(/^\.\//, '/').replace(/ -> .*$/, ''));
    for (const file of [
      '/usr/bin/onreco-gateway',
      `${LIB_DIR}/onreco-gateway.mjs`,
      `${LIB_DIR}/launcher.mjs`,
      RELEASE_KEY_FILE,
      `${LIB_DIR}/node_modules/better-sqlite3/build/Release/better_sqlite3.node`,
      `${LIB_DIR}/node_modules/node-ble/package.json`,
      `${LIB_DIR}/node_modules/dbus-next/package.json`,
      '/lib/systemd/system/onreco-gateway.service',
      '/usr/lib/sysusers.d/onreco-gateway.conf',
      '/usr/share/dbus-1/system.d/onreco-gateway.conf',
      '/usr/share/polkit-1/rules.d/50-onreco-gateway.rules',
      '/etc/default/onreco-gateway',
      '/usr/share/doc/onreco-gateway/gateway.md',
    ]) {
      expect(files).toContain(file);
    }
    const packages = new Set(files.filter((f) => f.startsWith(`${LIB_DIR}/node_modules/`)).map((f) => f.split('/')[5]));
    // Nothing of the console (PDF, fonts, PostgreSQL, Remix), no build inputs (SQLite's sources, tsx).
    for (const other of ['pdfkit', 'pdfmake', 'pg', '@remix-run', 'react', 'typescript', 'tsx', 'esbuild', 'prebuild-install', 'commander', 'zod', 'pino']) {
      expect(packages.has(other), other).toBe(false);
    }
    expect(files.some((f) => f.includes('better-sqlite3/deps') || f.includes('better-sqlite3/src'))).toBe(false);
    const rule = readFileSync(`${root}/usr/share/polkit-1/rules.d/50-onreco-gateway.rules`, 'utf8');
    expect(rule).toContain('"org.freedesktop.ModemManager1.Device.Control" && subject.user === "onreco-gateway"');
    const unit = readFileSync(`${root}/lib/systemd/system/onreco-gateway.service`, 'utf8');
    // systemd runs the launcher, which runs the daemon and rolls a bad release back (decision 290).
    expect(unit).toMatch(new RegExp(`^ExecStart=/usr/bin/node .* ${LIB_DIR}/launcher.mjs run$`, 'm'));
    expect(readFileSync(path.join(root, RELEASE_KEY_FILE.slice(1)), 'utf8')).toBe(publicPem);
    expect(unit).toMatch(/^User=onreco-gateway$/m);
  });

  it('runs from what it installs: decode, pair, replay a capture and upload it', async () => {
    const bundle = path.join(root, LIB_DIR.slice(1), 'onreco-gateway.mjs');
    const decode = await run(process.execPath, [bundle, 'decode', '--manufacturer-data', '0499:0512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F']);
    expect(JSON.parse(decode.out)).toMatchObject({ format: 'ruuvi-5', temperature: 24.3 });

    const peer = new TestPeer({ config: JSON.parse(readFileSync(path.join(FIXTURES, 'store-config.json'), 'utf8')) });
    await peer.start();
    try {
      const dataDir = path.join(out, 'data');
      const pair = await run(process.execPath, [bundle, 'pair', '--data-dir', dataDir, '--server', peer.url, '--gateway-info', 'GW-0001', '--pin', '123456']);
      expect(pair.code, pair.err).toBe(0);
      // As systemd runs it: through the launcher, which starts the packaged daemon beside it.
      const launcher = path.join(root, LIB_DIR.slice(1), 'launcher.mjs');
      const replay = await run(process.execPath, [launcher, 'run', '--source', `replay:${path.join(FIXTURES, 'store-capture.jsonl.gz')}`, '--exit-when-drained'], { ONRECO_GATEWAY_DATA_DIR: dataDir });
      expect(replay.code, replay.err).toBe(0);
      expect(replay.out + replay.err).toContain('starting the daemon');
      expect(peer.stored.size).toBe(3575); // as from the sources (tests/unit/gateway/cli.test.ts)
    } finally {
      await peer.stop();
    }
  }, 120_000);

  it('refuses a private key as the release key', async () => {
    writeFileSync(path.join(out, 'release-private.pem'), releaseKey.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    await expect(buildPackage('amd64', path.join(out, 'refused'), { releaseKey: path.join(out, 'release-private.pem') })).rejects.toThrow(/holds a private key/);
  });
});
