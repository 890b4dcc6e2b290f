import { spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBundle, ReleaseDir } from '../../../gateway/releases';

function bundleOf(files: Record<string, string>): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'onreco-bundle-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return spawnSync('tar', ['-czf', '-', '-C', dir, '.']).stdout;
}

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const offerOf = (bundle: Buffer, key = privateKey) => ({ sha256: createHash('sha256').update(bundle).digest('hex'), signature: sign(null, bundle, key).toString('base64'), size_bytes: bundle.byteLength });

describe('a release on the box', () => {
  it('takes a bundle only when its size, sha256 and ed25519 signature hold', () => {
    const bundle = bundleOf({ 'onreco-gateway.mjs': 'console.log(1)' });
    expect(checkBundle(bundle, offerOf(bundle), publicKey)).toBeNull();
    expect(checkBundle(bundle, offerOf(bundle, other.privateKey), publicKey)).toMatch(/signature/);
    const tampered = Buffer.from(bundle);
    tampered[tampered.length - 1] ^= 1;
    // The console's sha256 and signature of the original: the tampered bytes fail before any unpacking.
    expect(checkBundle(tampered, offerOf(bundle), publicKey)).toMatch(/sha256/);
    expect(checkBundle(tampered, { ...offerOf(tampered), signature: offerOf(bundle).signature }, publicKey)).toMatch(/signature/);
  });

  it('unpacks into its own version directory and switches the current link back and forth, leaving the data dir alone', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'onreco-data-'));
    writeFileSync(path.join(dataDir, 'buffer.sqlite'), 'the buffer');
    const releases = new ReleaseDir(path.join(dataDir, 'releases'));
    mkdirSync(releases.dir);
    releases.unpack('0.3.0', bundleOf({ 'onreco-gateway.mjs': 'v3' }));
    releases.unpack('0.4.0', bundleOf({ 'onreco-gateway.mjs': 'v4' }));
    releases.switchTo('0.3.0');
    releases.switchTo('0.4.0');
    expect(readlinkSync(releases.currentLink)).toBe(path.join('versions', '0.4.0'));
    expect(readFileSync(releases.currentEntry()!, 'utf8')).toBe('v4');
    releases.switchTo('0.3.0');
    expect(releases.currentVersion()).toBe('0.3.0');
    releases.switchTo(null);
    expect(releases.currentEntry()).toBeNull();
    expect(readFileSync(path.join(dataDir, 'buffer.sqlite'), 'utf8')).toBe('the buffer');
    expect(readdirSync(releases.dir).filter((name) => name.includes('tmp'))).toEqual([]);
    expect(() => releases.unpack('0.5.0', bundleOf({ 'other.js': '' }))).toThrow(/no onreco-gateway.mjs/);
    expect(existsSync(releases.versionDir('0.5.0'))).toBe(false);
  });

  it('prunes every version directory but the ones kept, a half-unpacked one too', () => {
    const releases = new ReleaseDir(path.join(mkdtempSync(path.join(tmpdir(), 'onreco-data-')), 'releases'));
    expect(releases.prune(['0.3.0'])).toEqual([]);
    for (const version of ['0.3.0', '0.4.0', '0.5.0']) releases.unpack(version, bundleOf({ 'onreco-gateway.mjs': version }));
    mkdirSync(`${releases.versionDir('0.6.0')}.4242.tmp`);
    releases.switchTo('0.5.0');
    expect(releases.prune(['0.5.0', null]).sort()).toEqual(['0.3.0', '0.4.0', '0.6.0.4242.tmp']);
    expect(readdirSync(path.join(releases.dir, 'versions'))).toEqual(['0.5.0']);
    expect(readFileSync(releases.currentEntry()!, 'utf8')).toBe('0.5.0');
  });
});
