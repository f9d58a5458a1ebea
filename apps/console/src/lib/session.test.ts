import { describe, expect, it } from 'vitest';
import { isLoginPath, loginHref, safeRedirect } from './session';

describe('safeRedirect', () => {
  it('accepts same-origin relative paths with query and hash', () => {
    expect(safeRedirect('/profile')).toBe('/profile');
    expect(safeRedirect('/domains?status=1,2&companyId=3#top')).toBe('/domains?status=1,2&companyId=3#top');
  });

  it('refuses anything that could leave the origin or loop back to login', () => {
    for (const bad of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      'profile',
      '',
      '/\u0000//evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\u2028/evil.example',
      '/a//evil.example',
      '/a\\evil.example',
      '/login',
      '/login?type=2fa',
      '/newpassword?token=1',
      undefined,
      42,
    ]) {
      expect(safeRedirect(bad)).toBeNull();
    }
  });
});

describe('loginHref', () => {
  it('keeps the current path as redirect, except for login paths and the home page', () => {
    expect(loginHref('/users?page=2')).toBe('/login?redirect=%2Fusers%3Fpage%3D2');
    expect(loginHref('/login?type=2fa')).toBe('/login');
    expect(loginHref('/')).toBe('/login');
  });

  it('knows the login paths', () => {
    expect(isLoginPath('/login')).toBe(true);
    expect(isLoginPath('/newpassword')).toBe(true);
    expect(isLoginPath('/loginx')).toBe(false);
    expect(isLoginPath('/users')).toBe(false);
  });
});
