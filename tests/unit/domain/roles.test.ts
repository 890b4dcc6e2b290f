import { describe, expect, it } from 'vitest';
import { ACCOUNT_MENU_LINKS, can, HEADER_MENUS, menuPermissions, roleOf, seesAllStores, storeMenu, visibleLinks, visibleMenu } from '~/domain/roles';

describe('roles (000 §6 / 001 §6)', () => {
  it('maps authorities to roles', () => {
    expect([1, 2, 3, 4, 5].map(roleOf)).toEqual(Array(5).fill('administrator'));
    expect(roleOf(10)).toBe('maintenance');
    expect(roleOf(20)).toBe('caseManager');
    expect(roleOf(30)).toBe('areaManager');
    expect(roleOf(101)).toBe('storeUser');
  });

  it('gives each role the menus of the role table', () => {
    const table = {
      1: { systemMenu: true, masterMenu: true, createNotice: true, storeSettings: true, storeManagement: true, editDiagram: true, auditLog: true, gatewayList: true, storeImport: true, gatewayReleases: true, chainOverview: true, settingsTemplates: true },
      10: { systemMenu: false, masterMenu: false, createNotice: false, storeSettings: true, storeManagement: true, editDiagram: true, auditLog: false, gatewayList: true, storeImport: false, gatewayReleases: false, chainOverview: true, settingsTemplates: false },
      20: { systemMenu: false, masterMenu: true, createNotice: false, storeSettings: true, storeManagement: false, editDiagram: true, auditLog: false, gatewayList: false, storeImport: false, gatewayReleases: false, chainOverview: true, settingsTemplates: false },
      30: { systemMenu: false, masterMenu: true, createNotice: false, storeSettings: true, storeManagement: false, editDiagram: true, auditLog: false, gatewayList: false, storeImport: false, gatewayReleases: false, chainOverview: true, settingsTemplates: false },
      101: { systemMenu: false, masterMenu: false, createNotice: false, storeSettings: false, storeManagement: false, editDiagram: false, auditLog: false, gatewayList: false, storeImport: false, gatewayReleases: false, chainOverview: false, settingsTemplates: false },
    };
    for (const [authority, expected] of Object.entries(table)) expect(menuPermissions(Number(authority))).toEqual(expected);
  });

  it('lets administrators and maintenance see every store, nobody else', () => {
    expect([1, 5, 10].map(seesAllStores)).toEqual([true, true, true]);
    expect([20, 30, 101].map(seesAllStores)).toEqual([false, false, false]);
    expect(can(101, 'editDiagram')).toBe(false);
  });

  it('builds the header and sidebar menus from the same table', () => {
    const labels = (authority: number) => visibleMenu(storeMenu('S001'), menuPermissions(authority)).map((section) => section.links.map((link) => link.label));
    expect(labels(101)).toEqual([['温度管理', '警報履歴', '温度グラフ', 'レポート', 'HACCP記録', 'センサ配置図']]);
    expect(labels(20)[1]).toEqual(['設定']);
    expect(labels(10)[1]).toEqual(['設定', '店舗管理']);
    expect(visibleMenu(HEADER_MENUS, menuPermissions(10)).map((menu) => menu.label)).toEqual(['ゲートウェイ']);
    expect(visibleMenu(HEADER_MENUS, menuPermissions(30)).map((menu) => menu.label)).toEqual(['マスタ管理']);
    expect(visibleMenu(HEADER_MENUS, menuPermissions(1)).map((menu) => menu.label)).toEqual(['マスタ管理', 'システム管理', 'ゲートウェイ']);
    expect(visibleMenu(HEADER_MENUS, menuPermissions(1)).find((menu) => menu.key === 'system')?.links.map((link) => link.label)).toContain('監査ログ');
    expect(visibleLinks(ACCOUNT_MENU_LINKS, menuPermissions(20))).toEqual([]);
  });
});
