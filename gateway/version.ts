// The daemon's version as the health report sends it (docs/decisions/160). Bumped with each release
// of the gateway (deploy/build.ts bundles it).
export const GATEWAY_VERSION = '0.2.0';
