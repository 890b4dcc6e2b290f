// Authorities (000 §6 / 001 §6): 1-5 administrator, 10 maintenance staff, 20 case manager,
// 30 area manager, 101 store user. Anything below 101 is a non-store user. A user's
// authority is the most privileged (lowest) one among their user groups.
import { appUrl, storeUrl } from './urls';

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
  auditLog: ['administrator'],
  gatewayList: ['administrator', 'maintenance'],
  /** Ours (decision 291): gateway releases and rollouts reach every box of the chain. */
  gatewayReleases: ['administrator'],
  /** Ours (decision 153): a store import creates stores (masterMenu) and registers sensors (storeManagement) at once; only roles with both. */
  storeImport: ['administrator'],
  /** Ours (decision 292): the chain at a glance, for the roles that watch many stores; a store user watches their store. */
  chainOverview: ['administrator', 'maintenance', 'caseManager', 'areaManager'],
  /** Ours (decision 295): settings templates are chain-wide, so only administrators write them; applying one is storeSettings on one's own stores. */
  settingsTemplates: ['administrator'],
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

// ---- the menus that follow the role table --------------------------------------------------
// The header and the store sidebar draw these entries; an entry with a permission shows only
// to the roles that have it (the same table the server enforces).

export interface MenuLink {
  /** Names the icon the component draws. */
  key: string;
  label: string;
  to: string;
  permission?: Permission;
  /** Other pages on which the entry reads as the current one. */
  alsoActiveOn?: readonly string[];
}

export interface MenuSection {
  key: string;
  label: string;
  permission?: Permission;
  links: readonly MenuLink[];
}

/** The header's popup menus (000 §2 / 001 §2). */
export const HEADER_MENUS: readonly MenuSection[] = [
  {
    key: 'master',
    label: 'マスタ管理',
    permission: 'masterMenu',
    links: [
      { key: 'users', label: 'ユーザー登録', to: appUrl.userMaster },
      { key: 'storeCreate', label: '新規店舗登録', to: appUrl.storeCreate },
    ],
  },
  {
    key: 'system',
    label: 'システム管理',
    permission: 'systemMenu',
    links: [
      { key: 'companies', label: '会社', to: appUrl.companyMaster },
      { key: 'storegroups', label: '店舗グループ', to: appUrl.storegroupMaster },
      { key: 'usergroups', label: 'ユーザーグループ', to: appUrl.usergroupMaster },
      { key: 'auditLog', label: '監査ログ', to: appUrl.auditLog, permission: 'auditLog' },
      { key: 'webhooks', label: 'Webhook送信先', to: appUrl.webhooks },
      { key: 'escalationPolicies', label: 'エスカレーション設定', to: appUrl.escalationPolicies },
    ],
  },
  {
    key: 'gateways',
    label: 'ゲートウェイ',
    permission: 'gatewayList',
    links: [{ key: 'gatewayList', label: 'ゲートウェイ一覧', to: appUrl.gatewayList }],
  },
];

/** The header's direct links beside the dashboard (the phone menu lists them first). */
export const HEADER_LINKS: readonly MenuLink[] = [{ key: 'chainOverview', label: '全店舗概況', to: appUrl.chainOverview, permission: 'chainOverview' }];

/** The account popup's links above the manuals (the rest is for everyone). */
export const ACCOUNT_MENU_LINKS: readonly MenuLink[] = [{ key: 'noticeCreate', label: 'お知らせ作成', to: appUrl.noticeCreate, permission: 'createNotice' }];

/** The store sidebar (000 §2): the pages of one store. */
export function storeMenu(storeId: string): readonly MenuSection[] {
  return [
    {
      key: 'general',
      label: '一般',
      links: [
        { key: 'sensors', label: '温度管理', to: storeUrl.sensors(storeId, 'image'), alsoActiveOn: [storeUrl.sensors(storeId, 'list')] },
        { key: 'alertHistory', label: '警報履歴', to: storeUrl.alertHistory(storeId) },
        { key: 'graphs', label: '温度グラフ', to: storeUrl.graphs(storeId) },
        { key: 'reports', label: 'レポート', to: storeUrl.reports(storeId) },
        { key: 'haccp', label: 'HACCP記録', to: storeUrl.haccp(storeId) },
        { key: 'diagram', label: 'センサ配置図', to: storeUrl.diagram(storeId) },
      ],
    },
    {
      key: 'settings',
      label: '設定',
      links: [
        { key: 'settings', label: '設定', to: storeUrl.sensorSettings(storeId), permission: 'storeSettings' },
        { key: 'management', label: '店舗管理', to: storeUrl.management(storeId), permission: 'storeManagement' },
      ],
    },
  ];
}

const allowed = (permissions: Record<Permission, boolean>, permission?: Permission) => permission === undefined || permissions[permission];

export function visibleLinks(links: readonly MenuLink[], permissions: Record<Permission, boolean>): MenuLink[] {
  return links.filter((link) => allowed(permissions, link.permission));
}

/** The sections and links a viewer may see: a section left without links is left out. */
export function visibleMenu(sections: readonly MenuSection[], permissions: Record<Permission, boolean>): MenuSection[] {
  return sections
    .filter((section) => allowed(permissions, section.permission))
    .map((section) => ({ ...section, links: visibleLinks(section.links, permissions) }))
    .filter((section) => section.links.length > 0);
}
