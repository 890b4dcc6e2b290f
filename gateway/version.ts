// The daemon's version as the health report sends it (docs/decisions/160). Bumped with each release
// of the gateway; a release build stamps its own (deploy/build.ts `version`, decision 290).
declare const __ONRECO_GATEWAY_VERSION__: string | undefined;

export const SOURCE_VERSION = '0.2.0';
export const GATEWAY_VERSION: string = typeof __ONRECO_GATEWAY_VERSION__ === 'string' ? __ONRECO_GATEWAY_VERSION__ : SOURCE_VERSION;
