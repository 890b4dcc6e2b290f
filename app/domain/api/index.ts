import type { ApiCall, HttpMethod } from './call';
import * as alerts from './alerts';
import * as alertSchedules from './alert-schedules';
import * as audit from './audit';
import * as auth from './auth';
import * as diagrams from './diagrams';
import * as escalation from './escalation';
import * as gateway from './gateway';
import * as haccp from './haccp';
import * as lookups from './lookups';
import * as masters from './masters';
import * as notices from './notices';
import * as openapi from './openapi';
import * as reports from './reports';
import * as sensors from './sensors';
import * as sensorSettings from './sensor-settings';
import * as settingsTemplates from './settings-templates';
import * as stores from './stores';
import * as users from './users';
import * as webhooks from './webhooks';

// The API registry: every /on-reco call, declared once (DESIGN.md "The API registry").
// Importable without server code: the CLI's client and the tests read it as plain data.

export * from './call';
export { alerts, alertSchedules, audit, auth, diagrams, escalation, gateway, haccp, lookups, masters, notices, openapi, reports, sensors, sensorSettings, settingsTemplates, stores, users, webhooks };

const isCall = (value: unknown): value is ApiCall => typeof value === 'object' && value !== null && 'id' in value && 'path' in value && 'access' in value;

/**
 * The declared calls of each area module (the description's tags). Each call is exported under
 * its id and no two share one (the id is the operationId and the CLI client's method name).
 */
export function registryOf(areas: Readonly<Record<string, Readonly<Record<string, unknown>>>>): Record<string, ApiCall[]> {
  const seen = new Map<string, string>();
  return Object.fromEntries(
    Object.entries(areas).map(([area, module]) => {
      const calls = Object.entries(module).filter((entry): entry is [string, ApiCall] => isCall(entry[1]));
      for (const [name, call] of calls) {
        if (call.id !== name) throw new Error(`api/${area}: ${name} is declared with the id ${call.id}; export a call under its id`);
        if (seen.has(call.id)) throw new Error(`api/${area}: ${call.id} is declared in api/${seen.get(call.id)} too; ids are unique`);
        seen.set(call.id, area);
      }
      return [area, calls.map(([, call]) => call)];
    }),
  );
}

/** The declared calls of each area. */
export const API_AREAS: Readonly<Record<string, readonly ApiCall[]>> = registryOf({ auth, lookups, notices, stores, users, masters, sensors, sensorSettings, alerts, alertSchedules, reports, haccp, diagrams, gateway, openapi, audit, escalation, webhooks, settingsTemplates });

/** Every declared call. */
export const API_CALLS: readonly ApiCall[] = Object.values(API_AREAS).flat();

/** Route files under app/routes/on-reco+/ that are not calls, and why. */
export const NOT_CALLS: Readonly<Record<string, string>> = {
  'v1.$.ts': 'the catch-all of unknown /on-reco/v1 paths: 401 without a token, else 404 JSON; it declares nothing',
  'docs.ts': 'GET /on-reco/docs, the API reference for people (an HTML page drawing openapi.json with swagger-ui), not a call',
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
