// The demo chain's logins, one per role. Demo only: a production database gets no demo users.
export const DEMO_DEFAULT_PASSWORD = 'onreco_demo_2026';

export const DEMO_LOGINS = {
  admin: 1,
  maintenance: 10,
  casemanager: 20,
  areamanager: 30,
  storeuser: 101,
} as const;
