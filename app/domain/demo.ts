// The demo chain's logins, one per role, seeded only when ONRECO_DEMO says so (the embedded
// database's default). The default password passes the product's own rule (PASSWORD_RULE) in its
// strictest reading, 12 or more 半角英数字 (no underscore), so a demo user may type it back on the
// password change page (decision 179).
export const DEMO_DEFAULT_PASSWORD = 'OnRecoDemo2026';

/**
 * Whether `npm start` seeds the demo chain (into an empty database) and runs its simulated
 * gateways: ONRECO_DEMO when it is set, 1 or 0, whatever the database; unset, only with the
 * embedded database. NODE_ENV plays no part.
 */
export function demoChainWanted(onrecoDemo: boolean | undefined, embeddedDatabase: boolean): boolean {
  return onrecoDemo ?? embeddedDatabase;
}

export const DEMO_LOGINS = {
  admin: 1,
  maintenance: 10,
  casemanager: 20,
  areamanager: 30,
  storeuser: 101,
} as const;
