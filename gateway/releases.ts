// The box's releases (decision 290): versioned directories under the release dir and a
// `current` link switched by rename, so a switch is atomic; the data dir (token, buffer) is
// never inside a version directory, so no switch touches it.
//
//   <releaseDir>/versions/<version>/onreco-gateway.mjs   an unpacked, verified release
//   <releaseDir>/current -> versions/<version>           what the launcher runs (absent: the packaged one)
//   <releaseDir>/state.json                              the pending switch and the failed versions
//   <releaseDir>/healthy.json                            the version that uploaded successfully last
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeFileAtomic } from './files';

/** The exit code of a daemon that switched to a new release and wants to be started again (EX_TEMPFAIL). */
export const EXIT_FOR_UPDATE = 75;
export const RELEASE_ENTRY = 'onreco-gateway.mjs';

const StateSchema = z.object({
  /** A switch not yet confirmed healthy: the launcher counts its starts and watches the clock. */
  pending: z
    .object({ version: z.string(), previous: z.string().nullable(), switchedAt: z.string(), starts: z.number().int().min(0) })
    .nullable()
    .default(null),
  /** Versions this box took and left by itself, never taken again; `reported` once the console has them. */
  failures: z.array(z.object({ version: z.string(), reason: z.string(), at: z.string(), reported: z.boolean() })).default([]),
});
export type ReleaseState = z.infer<typeof StateSchema>;

const HealthySchema = z.object({ version: z.string(), at: z.string() });

export class ReleaseDir {
  constructor(readonly dir: string) {}

  get currentLink(): string {
    return path.join(this.dir, 'current');
  }

  versionDir(version: string): string {
    return path.join(this.dir, 'versions', version);
  }

  /** The version `current` names, or null (the packaged one runs). */
  currentVersion(): string | null {
    try {
      return path.basename(readlinkSync(this.currentLink));
    } catch {
      return null;
    }
  }

  /** The entry the launcher starts: the current release's, or null for the packaged one. */
  currentEntry(): string | null {
    const version = this.currentVersion();
    if (!version) return null;
    const entry = path.join(this.versionDir(version), RELEASE_ENTRY);
    return existsSync(entry) ? entry : null;
  }

  readState(): ReleaseState {
    return StateSchema.parse(readJsonFile(path.join(this.dir, 'state.json')) ?? {});
  }

  writeState(state: ReleaseState): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileAtomic(path.join(this.dir, 'state.json'), JSON.stringify(state, null, 2) + '\n', { durable: true });
  }

  readHealthy(): z.infer<typeof HealthySchema> | null {
    const raw = readJsonFile(path.join(this.dir, 'healthy.json'));
    return raw === null ? null : HealthySchema.parse(raw);
  }

  markHealthy(version: string, at: Date): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writeFileAtomic(path.join(this.dir, 'healthy.json'), JSON.stringify({ version, at: at.toISOString() }) + '\n', { durable: true });
  }

  /** Points `current` at a version (null: the packaged one) by renaming a new link over it: atomic. */
  switchTo(version: string | null): void {
    if (version === null) {
      rmSync(this.currentLink, { force: true });
      return;
    }
    const tmp = `${this.currentLink}.${process.pid}.tmp`;
    rmSync(tmp, { force: true });
    symlinkSync(path.join('versions', version), tmp);
    renameSync(tmp, this.currentLink);
  }

  /**
   * Removes every version directory but `keep` (and any half-unpacked temp dir), so a box that
   * takes a release a month does not fill its disk. Returns what it removed.
   */
  prune(keep: (string | null)[]): string[] {
    const versions = path.join(this.dir, 'versions');
    if (!existsSync(versions)) return [];
    const removed: string[] = [];
    for (const name of readdirSync(versions)) {
      if (keep.includes(name)) continue;
      rmSync(path.join(versions, name), { recursive: true, force: true });
      removed.push(name);
    }
    return removed;
  }

  /** Unpacks a verified bundle into versions/<version> (through a temp dir renamed into place). */
  unpack(version: string, bundle: Buffer): void {
    const target = this.versionDir(version);
    const tmp = `${target}.${process.pid}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    const tar = spawnSync('tar', ['-xzf', '-', '-C', tmp, '--no-same-owner'], { input: bundle, stdio: ['pipe', 'ignore', 'pipe'] });
    if (tar.status !== 0) {
      rmSync(tmp, { recursive: true, force: true });
      throw new Error(`tar could not unpack the bundle: ${tar.stderr.toString().trim() || `exit ${tar.status}`}`);
    }
    if (!existsSync(path.join(tmp, RELEASE_ENTRY))) {
      rmSync(tmp, { recursive: true, force: true });
      throw new Error(`the bundle has no ${RELEASE_ENTRY}`);
    }
    rmSync(target, { recursive: true, force: true });
    renameSync(tmp, target);
  }
}

/** The release public key: a PEM (SPKI) file or its text. */
export function releasePublicKey(pemOrFile: string): KeyObject {
  const pem = pemOrFile.includes('BEGIN PUBLIC KEY') ? pemOrFile : readFileSync(pemOrFile, 'utf8');
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the release key is not an ed25519 public key');
  return key;
}

/** Why a downloaded bundle may not be unpacked, or null when its size, sha256 and ed25519 signature all hold. */
export function checkBundle(bundle: Buffer, expected: { sha256: string; signature: string; size_bytes: number }, key: KeyObject): string | null {
  if (bundle.byteLength !== expected.size_bytes) return `size ${bundle.byteLength}, expected ${expected.size_bytes}`;
  if (createHash('sha256').update(bundle).digest('hex') !== expected.sha256) return 'sha256 does not match';
  const signature = Buffer.from(expected.signature, 'base64');
  if (signature.byteLength !== 64 || !verify(null, bundle, key, signature)) return 'the signature does not verify with the release key';
  return null;
}
