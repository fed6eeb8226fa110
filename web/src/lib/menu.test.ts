import { describe, expect, it } from 'vitest';
import type { MenuEntry } from './api/types';
import { firstLeaf, menuTrail, routePattern } from './menu';

const e = (over: Partial<MenuEntry>): MenuEntry => ({
  name: '', en_name: '', alias: '', uri: '', route_name: '', is_show: '1', icon_path: '', children: [], count: '', count_color: '', index: 0, active_menu: '', menu: true, header: true, ...over,
});
const menus = [
  e({ name: 'Hidden', uri: '/hidden', is_show: '0' }),
  e({ name: 'System', uri: '/system', children: [e({ uri: '/system/x', is_show: '0' }), e({ uri: '/system/user' }), e({ uri: '/site/manage' })] }),
  e({ uri: '/log/operation' }),
];

describe('menu helpers', () => {
  it('lands on the first shown leaf of the first menu', () => {
    expect(firstLeaf(menus)).toBe('/system/user');
    expect(firstLeaf([])).toBeNull();
  });
  it('finds the trail to a path', () => {
    expect(menuTrail(menus, '/site/manage').map((m) => m.uri)).toEqual(['/system', '/site/manage']);
    expect(menuTrail(menus, '/nope')).toEqual([]);
  });
});

describe('routePattern', () => {
  it('turns numeric segments into :id', () => {
    expect(routePattern('/diagnosis/item/12')).toBe('/diagnosis/item/:id');
    expect(routePattern('/case/register/new')).toBe('/case/register/new');
    expect(routePattern('/case/detail/5/x')).toBe('/case/detail/:id/x');
  });
});
