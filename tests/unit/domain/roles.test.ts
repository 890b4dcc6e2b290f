import { describe, expect, it } from 'vitest';
import { can, menuPermissions, roleOf, seesAllStores } from '~/domain/roles';

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
      1: { systemMenu: true, masterMenu: true, createNotice: true, storeSettings: true, storeManagement: true, editDiagram: true },
      10: { systemMenu: false, masterMenu: false, createNotice: false, storeSettings: true, storeManagement: true, editDiagram: true },
      20: { systemMenu: false, masterMenu: true, createNotice: false, storeSettings: true, storeManagement: false, editDiagram: true },
      30: { systemMenu: false, masterMenu: true, createNotice: false, storeSettings: true, storeManagement: false, editDiagram: true },
      101: { systemMenu: false, masterMenu: false, createNotice: false, storeSettings: false, storeManagement: false, editDiagram: false },
    };
    for (const [authority, expected] of Object.entries(table)) expect(menuPermissions(Number(authority))).toEqual(expected);
  });

  it('lets administrators and maintenance see every store, nobody else', () => {
    expect([1, 5, 10].map(seesAllStores)).toEqual([true, true, true]);
    expect([20, 30, 101].map(seesAllStores)).toEqual([false, false, false]);
    expect(can(101, 'editDiagram')).toBe(false);
  });
});
