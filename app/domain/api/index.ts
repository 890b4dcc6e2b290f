import type { ApiCall, HttpMethod } from './call';
import * as alerts from './alerts';
import * as auth from './auth';
import * as diagrams from './diagrams';
import * as gateway from './gateway';
import * as lookups from './lookups';
import * as notices from './notices';
import * as openapi from './openapi';
import * as sensors from './sensors';
import * as stores from './stores';

// The API registry: every /on-reco call, declared once (DESIGN.md "The API registry").
// Importable without server code: the CLI's client and the tests read it as plain data.

export * from './call';
export { alerts, auth, diagrams, gateway, lookups, notices, openapi, sensors, stores };

const isCall = (value: unknown): value is ApiCall => typeof value === 'object' && value !== null && 'id' in value && 'path' in value && 'access' in value;
const callsOf = (area: Record<string, unknown>) => Object.values(area).filter(isCall);

/** The declared calls of each area (the description's tags). */
export const API_AREAS: Readonly<Record<string, readonly ApiCall[]>> = Object.fromEntries(
  Object.entries({ auth, lookups, notices, stores, sensors, alerts, diagrams, gateway, openapi }).map(([area, module]) => [area, callsOf(module)]),
);

/** Every declared call. */
export const API_CALLS: readonly ApiCall[] = Object.values(API_AREAS).flat();

/** Route files under app/routes/on-reco+/ that are not calls, and why. */
export const NOT_CALLS: Readonly<Record<string, string>> = {
  'v1.$.ts': 'the catch-all of unknown /on-reco/v1 paths: 401 without a token, else 404 JSON; it declares nothing',
};

/** The methods declared at a path, in a stable order (the Allow header of a 405). */
export function methodsAt(path: string): HttpMethod[] {
  const order: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  const declared = new Set(API_CALLS.filter((call) => call.path === path).map((call) => call.method));
  return order.filter((method) => declared.has(method));
}

export function callById(id: string): ApiCall | undefined {
  return API_CALLS.find((call) => call.id === id);
}
