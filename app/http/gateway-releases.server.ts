import type { ReleaseRow, RolloutProgress } from '~/models/gateway-releases.server';

// The wire shapes of releases and rollouts (snake_case, as the /on-reco API writes them).

export const releaseAnswer = (release: ReleaseRow) => ({
  version: release.version,
  sha256: release.sha256,
  signature: release.signature,
  size_bytes: release.sizeBytes,
  uploaded_at: release.uploadedAt,
  uploaded_by: release.uploadedBy,
});

export const rolloutAnswer = (rollout: RolloutProgress) => ({
  storegroup_id: rollout.storegroupId,
  storegroup_name: rollout.storegroupName,
  version: rollout.version,
  wave_percent: rollout.wavePercent,
  paused: rollout.paused,
  started_at: rollout.startedAt,
  waves: rollout.waves,
  gateways: rollout.gateways.map((g) => ({ store_id: g.storeId, store_no: g.storeNo, store_name: g.storeName, wave: g.wave, running_version: g.runningVersion, state: g.state, failure: g.failure })),
});
