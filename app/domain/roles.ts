// Authorities (000 §6 / 001 §6): 1-5 administrator, 10 maintenance staff, 20 case manager,
// 30 area manager, 101 store user. Anything below 101 is a non-store user. A user's
// authority is the most privileged (lowest) one among their user groups.

export const AUTHORITY = {
  administrator: 1,
  maintenance: 10,
  caseManager: 20,
  areaManager: 30,
  storeUser: 101,
} as const;

export type Role = 'administrator' | 'maintenance' | 'caseManager' | 'areaManager' | 'storeUser';

export function roleOf(authority: number): Role {
  if (authority >= 1 && authority <= 5) return 'administrator';
  if (authority === AUTHORITY.maintenance) return 'maintenance';
  if (authority === AUTHORITY.caseManager) return 'caseManager';
  if (authority === AUTHORITY.areaManager) return 'areaManager';
  return 'storeUser';
}

export const isAdministrator = (authority: number) => roleOf(authority) === 'administrator';
export const isNonStoreUser = (authority: number) => authority < AUTHORITY.storeUser;

/** Administrators and maintenance see every store; others the stores of their user groups. */
export const seesAllStores = (authority: number) => ['administrator', 'maintenance'].includes(roleOf(authority));

/** What each role may open, by the role table of the specifications; enforced on the server too. */
export const PERMISSIONS = {
  systemMenu: ['administrator'],
  masterMenu: ['administrator', 'caseManager', 'areaManager'],
  createNotice: ['administrator'],
  storeSettings: ['administrator', 'maintenance', 'caseManager', 'areaManager'],
  storeManagement: ['administrator', 'maintenance'],
  editDiagram: ['administrator', 'maintenance', 'caseManager', 'areaManager'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(authority: number, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(roleOf(authority));
}

/** The menus and links a viewer may see, for the layout. */
export function menuPermissions(authority: number): Record<Permission, boolean> {
  return Object.fromEntries(
    (Object.keys(PERMISSIONS) as Permission[]).map((permission) => [permission, can(authority, permission)]),
  ) as Record<Permission, boolean>;
}
