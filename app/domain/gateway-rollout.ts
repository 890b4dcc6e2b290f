import { z } from 'zod';
import { dbText } from './input-schemas';

// Gateway releases rolled out in two waves (issue 27 part 2, decision 291). Pure: the model
// gives the group's gateways as facts; this decides which box is offered the version and how
// far the rollout is.

/** A release version: what the daemon's GATEWAY_VERSION holds (semver-like, no spaces). */
export const RELEASE_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$/;
export const ReleaseVersionSchema = dbText().trim().regex(RELEASE_VERSION, 'version is 1-64 letters, digits, dots, + or -');

/** The largest bundle taken (the packaged tree is ≈ 3 MB unpacked, ≈ 1 MB compressed). */
export const MAX_RELEASE_BYTES = 48 * 1024 * 1024;

export const ReleaseUploadSchema = z.object({
  version: ReleaseVersionSchema,
  /** The bundle (.tar.gz of the install tree), base64. */
  bundle_base64: z
    .string()
    .min(1, 'bundle_base64 is required')
    .max(Math.ceil(MAX_RELEASE_BYTES / 3) * 4, `bundle_base64 is larger than ${MAX_RELEASE_BYTES / 1024 / 1024} MB`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'bundle_base64 is not base64')
    // A gzip stream starts 1f 8b 08, which base64 writes H4sI.
    .refine((value) => value.startsWith('H4sI'), 'bundle_base64 is not a .tar.gz'),
  /** The ed25519 signature of the bundle's bytes, base64 (64 bytes). */
  signature: z.string().trim().regex(/^[A-Za-z0-9+/]{86}==$/, 'signature is a base64 ed25519 signature (64 bytes)'),
});
export type ReleaseUpload = z.output<typeof ReleaseUploadSchema>;

const StoregroupIdSchema = dbText().trim().min(1, 'storegroup_id is required').max(5, 'storegroup_id is at most 5 characters');

export const RolloutSchema = z.object({
  storegroup_id: StoregroupIdSchema,
  version: ReleaseVersionSchema,
  /** The first wave's share of the group's gateways; 100 is one wave. */
  wave_percent: z.coerce.number().int().min(1, 'wave_percent is 1-100').max(100, 'wave_percent is 1-100').default(10),
});

export const RolloutPauseSchema = z.object({
  storegroup_id: StoregroupIdSchema,
  paused: z.boolean(),
});

export const UpdateFailureSchema = z.object({
  version: ReleaseVersionSchema,
  reason: dbText().trim().min(1, 'reason is required').max(500, 'reason is at most 500 characters'),
});

export const ReleaseDownloadQuerySchema = z.object({ version: ReleaseVersionSchema });

/** Where a box of the group stands with the rollout's version. */
export type GatewayUpdateState = 'updated' | 'pending' | 'failed';

export const UPDATE_STATE_LABELS: Record<GatewayUpdateState, string> = { updated: '更新済み', pending: '未更新', failed: '失敗（ロールバック）' };

export interface RolloutFacts {
  version: string;
  wavePercent: number;
  paused: boolean;
}

/** A gateway of the group as the model sees it. */
export interface GroupGateway {
  storeId: string;
  /** The version of its newest health report, or null. */
  runningVersion: string | null;
  /** It posted readings after that report: the version uploads (healthy), not only started. */
  uploadedSince: boolean;
  /** It reported this rollout's version as failed (rolled back). */
  failed: boolean;
}

export interface WaveProgress {
  wave: 1 | 2;
  updated: number;
  pending: number;
  failed: number;
  /** The version is offered to this wave's boxes (wave 2 only once wave 1 is all updated). */
  open: boolean;
}

export interface RolloutPlan {
  /** The wave of each store. */
  waveOf: Map<string, 1 | 2>;
  waves: [WaveProgress, WaveProgress];
  stateOf: Map<string, GatewayUpdateState>;
}

/** The first wave's size: at least one box, never the whole group unless the percentage is 100 or the group has one box. */
export function firstWaveSize(count: number, wavePercent: number): number {
  if (count === 0) return 0;
  if (wavePercent >= 100) return count;
  return Math.min(count, Math.max(1, Math.ceil((count * wavePercent) / 100)));
}

export function stateOf(gateway: GroupGateway, version: string): GatewayUpdateState {
  if (gateway.runningVersion === version && gateway.uploadedSince) return 'updated';
  return gateway.failed ? 'failed' : 'pending';
}

/**
 * The waves of a group's gateways (in store_id order: the first wave is the first
 * firstWaveSize of them) and each wave's progress. Wave 2 opens when every box of wave 1 runs
 * the version and has uploaded since it said so; a failure in wave 1 keeps it closed.
 */
export function planRollout(rollout: RolloutFacts, gateways: readonly GroupGateway[]): RolloutPlan {
  const sorted = [...gateways].sort((a, b) => (a.storeId < b.storeId ? -1 : a.storeId > b.storeId ? 1 : 0));
  const first = firstWaveSize(sorted.length, rollout.wavePercent);
  const waveOf = new Map<string, 1 | 2>();
  const states = new Map<string, GatewayUpdateState>();
  const waves: [WaveProgress, WaveProgress] = [
    { wave: 1, updated: 0, pending: 0, failed: 0, open: !rollout.paused },
    { wave: 2, updated: 0, pending: 0, failed: 0, open: false },
  ];
  sorted.forEach((gateway, index) => {
    const wave = index < first ? 1 : 2;
    const state = stateOf(gateway, rollout.version);
    waveOf.set(gateway.storeId, wave);
    states.set(gateway.storeId, state);
    waves[wave - 1][state] += 1;
  });
  waves[1].open = !rollout.paused && waves[0].pending === 0 && waves[0].failed === 0;
  return { waveOf, waves, stateOf: states };
}

/** Whether the store's box is offered the rollout's version now. A box that failed it is not offered it again. */
export function offeredTo(plan: RolloutPlan, storeId: string): boolean {
  const wave = plan.waveOf.get(storeId);
  if (!wave || plan.stateOf.get(storeId) === 'failed') return false;
  return plan.waves[wave - 1].open;
}

/** A rollout as the fleet screen and the API show it. */
export interface RolloutView {
  storegroupId: string;
  storegroupName: string;
  version: string;
  wavePercent: number;
  paused: boolean;
  startedAt: string;
  waves: WaveProgress[];
  gateways: { storeId: string; storeNo: string; storeName: string; wave: 1 | 2; runningVersion: string | null; state: GatewayUpdateState; failure: string | null }[];
}
