import { createHash } from 'node:crypto';
import type { Db } from '~/db/db.server';
import { MAX_RELEASE_BYTES, type ReleaseUpload } from '~/domain/gateway-rollout';
import { audit } from '~/models/audit.server';
import { getReleaseMeta, getRollout, insertRelease, type ReleaseRow, saveRollout, setRolloutPaused } from '~/models/gateway-releases.server';
import type { Viewer } from '~/models/users.server';

// Releases and rollouts administered (decision 291): each write with its audit row in one
// transaction. The console never signs: the signature comes with the bundle, made with a key
// kept outside it, and the boxes check it against the public key in their package.

export type ReleaseWriteFailure = { ok: false; status: 404 | 409 | 413; error: string; message: string };

const refused = (status: ReleaseWriteFailure['status'], error: string, message: string): ReleaseWriteFailure => ({ ok: false, status, error, message });

export async function uploadRelease(db: Db, viewer: Viewer, input: ReleaseUpload, now: Date): Promise<{ ok: true; release: ReleaseRow } | ReleaseWriteFailure> {
  const bundle = Buffer.from(input.bundle_base64, 'base64');
  if (bundle.byteLength > MAX_RELEASE_BYTES) return refused(413, 'payload_too_large', `The bundle is larger than ${MAX_RELEASE_BYTES / 1024 / 1024} MB.`);
  const sha256 = createHash('sha256').update(bundle).digest('hex');
  return db.transaction().execute(async (trx) => {
    const inserted = await insertRelease(trx, { version: input.version, bundle, sha256, signature: input.signature, uploadedAt: now, uploadedBy: viewer.userId });
    if (!inserted) return refused(409, 'conflict', `Release ${input.version} exists; a release is never replaced (give it a new version).`);
    await audit(trx, { at: now, userId: viewer.userId, action: 'gateway_release.upload', targetType: 'gateway_release', targetId: input.version, details: { version: input.version, sha256, size_bytes: bundle.byteLength } });
    return { ok: true as const, release: (await getReleaseMeta(trx, input.version))! };
  });
}

export async function startRollout(db: Db, viewer: Viewer, input: { storegroup_id: string; version: string; wave_percent: number }, now: Date): Promise<{ ok: true } | ReleaseWriteFailure> {
  return db.transaction().execute(async (trx) => {
    if (!(await getReleaseMeta(trx, input.version))) return refused(404, 'not_found', `Release ${input.version} was not found.`);
    const group = await trx.selectFrom('storegroups').select('storegroup_id').where('storegroup_id', '=', input.storegroup_id).executeTakeFirst();
    if (!group) return refused(404, 'not_found', `Store group ${input.storegroup_id} was not found.`);
    const before = await getRollout(trx, input.storegroup_id);
    await saveRollout(trx, { storegroupId: input.storegroup_id, version: input.version, wavePercent: input.wave_percent, now, userId: viewer.userId });
    await audit(trx, { at: now, userId: viewer.userId, action: 'gateway_rollout.save', targetType: 'gateway_rollout', targetId: input.storegroup_id, details: { before, after: input } });
    return { ok: true as const };
  });
}

export async function pauseRollout(db: Db, viewer: Viewer, storegroupId: string, paused: boolean, now: Date): Promise<{ ok: true } | ReleaseWriteFailure> {
  return db.transaction().execute(async (trx) => {
    if (!(await setRolloutPaused(trx, storegroupId, paused, now, viewer.userId))) return refused(404, 'not_found', `Store group ${storegroupId} has no rollout.`);
    await audit(trx, { at: now, userId: viewer.userId, action: paused ? 'gateway_rollout.pause' : 'gateway_rollout.resume', targetType: 'gateway_rollout', targetId: storegroupId });
    return { ok: true as const };
  });
}
