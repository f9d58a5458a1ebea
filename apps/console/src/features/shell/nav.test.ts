import { MODULE_LIST } from '@forpost/contract/modules';
import type { Principal } from '@forpost/contract/permissions';
import { describe, expect, it } from 'vitest';
import { NAV_ITEMS, navItemForPath, visibleNavItems } from './nav';
import { EVENT_SECTIONS, findEventSection } from './sections';

const paths = (p: Principal) => visibleNavItems(p).map((i) => i.path);

describe('nav data', () => {
  it('has every spec §2 section exactly once', () => {
    const all = NAV_ITEMS.map((i) => i.path);
    expect(new Set(all).size).toBe(all.length);
    expect(EVENT_SECTIONS).toHaveLength(MODULE_LIST.length);
    expect(new Set(EVENT_SECTIONS.map((s) => s.icon)).size).toBe(MODULE_LIST.length);
    // every section's menu item has an icon component
    for (const s of EVENT_SECTIONS) expect(NAV_ITEMS.find((i) => i.path === `/${s.section}`)?.icon).toBeTruthy();
    for (const p of [
      '/',
      '/messages',
      '/telegram/accounts',
      '/telegram/channels',
      '/reports',
      '/exports',
      '/notifications',
      '/companies',
      '/users',
      '/api-keys',
      '/api-docs',
      '/settings/configs',
      '/settings/tags',
      '/settings/whitelist',
      '/settings/media-types',
      '/settings/leaks',
      '/settings/leaks-types',
      '/settings/sla',
      ...EVENT_SECTIONS.map((s) => `/${s.section}`),
    ]) {
      expect(all).toContain(p);
    }
  });

  it('shows a super admin everything and hides system configs from an admin', () => {
    expect(paths({ role: 'SUPER_ADMIN', memberships: [] })).toHaveLength(NAV_ITEMS.length);
    const admin = paths({ role: 'ADMIN', memberships: [] });
    expect(admin).not.toContain('/settings/configs');
    expect(admin).toContain('/users');
  });

  it('shows a company viewer only what its company role allows', () => {
    const viewer = paths({ role: 'COMPANY_USER', memberships: [{ company_id: 7, role: 'COMPANY_VIEWER' }] });
    expect(viewer).toContain('/domains');
    expect(viewer).toContain('/reports');
    expect(viewer).not.toContain('/users');
    expect(viewer).not.toContain('/settings/tags');
    expect(viewer).not.toContain('/telegram/accounts');
    // No membership: only the pages every signed-in user has.
    expect(paths({ role: 'COMPANY_USER', memberships: [] })).toEqual(['/', '/api-docs']);
  });

  it('maps a URL to its menu item by the longest matching prefix', () => {
    expect(navItemForPath('/')?.label).toBe('Главная');
    expect(navItemForPath('/domains/15')?.label).toBe('Домены');
    expect(navItemForPath('/leaks/import')?.label).toBe('Утечки');
    expect(navItemForPath('/settings/leaks/import')?.label).toBe('Утечки (справочник)');
    expect(navItemForPath('/settings/leaks-types')?.label).toBe('Типы утечек');
    expect(navItemForPath('/domainsx')).toBeUndefined();
    expect(findEventSection('network-attacks')?.module).toBe('networkattacks');
    expect(findEventSection('users')).toBeUndefined();
  });
});
