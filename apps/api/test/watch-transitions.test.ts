/* The watch's classifier (modules/watch/transitions.ts) and page reading (page.ts): pure, no peers. */
import { BLANK_WATCH_STATE, TRANSITION_KINDS, TRANSITIONS, type WatchState } from '@forpost/contract/watch';
import { describe, expect, it } from 'vitest';
import { contentHash, hasLoginForm, normaliseHtml } from '../src/modules/watch/page';
import { isParked, reach, transitionsBetween } from '../src/modules/watch/transitions';

const base: WatchState = { ...BLANK_WATCH_STATE, ns: ['ns1.hoster.ru', 'ns2.hoster.ru'] };
const st = (p: Partial<WatchState> = {}): WatchState => ({ ...base, ...p });
const nx = st({ dns: 'nxdomain', ns: [] });
const nsOnly = st();
const parkedNs = st({ ns: ['ns1.sedoparking.com'], a: ['1.2.3.4'], http_status: 200, content_hash: 'p' });
const addr = st({ a: ['1.2.3.4'] });
const page = (hash = 'h1', more: Partial<WatchState> = {}) =>
  st({ a: ['1.2.3.4'], http_status: 200, final_url: 'https://x.ru/', content_hash: hash, ...more });
const kinds = (prev: WatchState | null, next: WatchState, down = false) => transitionsBetween(prev, next, down).kinds;

describe('transitionsBetween', () => {
  it('the first observation is the baseline: nothing', () => {
    expect(kinds(null, page('h', { login_form: true, mx: ['mx.x.ru'] }))).toEqual([]);
  });

  it('the same state twice: nothing (idle)', () => {
    for (const s of [nx, nsOnly, parkedNs, addr, page(), page('h', { login_form: true, tls_fingerprint: 'AA' })])
      expect(kinds(s, structuredClone(s))).toEqual([]);
  });

  it('registered → parked: NS only, or NS of a parking service', () => {
    expect(kinds(nx, nsOnly)).toEqual(['parked']);
    expect(kinds(addr, st({ a: ['1.2.3.4'], ns: ['ns2.parkingcrew.net'] }))).toEqual(['parked']);
    expect(isParked(nsOnly)).toBe(true);
    expect(isParked(st({ ns: [] }))).toBe(false);
    expect(isParked(parkedNs)).toBe(true);
  });

  it('MX appeared', () => {
    expect(kinds(nsOnly, st({ mx: ['mx.x.ru'] }))).toEqual(['mx_appeared']);
    expect(kinds(st({ mx: ['a'] }), st({ mx: ['b'] }))).toEqual([]);
  });

  it('web live: no page → a 2xx/3xx page', () => {
    expect(kinds(addr, page())).toEqual(['web_live']);
    expect(kinds(addr, page('h', { http_status: 302 }))).toEqual(['web_live']);
    expect(kinds(addr, page('h', { http_status: 404 }))).toEqual([]);
  });

  it('login form appeared, and not again while it stays', () => {
    expect(kinds(page('h1'), page('h2', { login_form: true }))).toEqual(['login_form']);
    expect(kinds(page('h2', { login_form: true }), page('h3', { login_form: true }))).toEqual(['content_changed']);
    // A password field on a page that is not live (404) is no login form.
    expect(kinds(page('h1'), page('h2', { login_form: true, http_status: 404 }))).toEqual(['offline']);
  });

  it('content changed: another hash between two live pages', () => {
    expect(kinds(page('h1'), page('h2'))).toEqual(['content_changed']);
    expect(kinds(page('h1', { title: 'a' }), page('h1', { title: 'a' }))).toEqual([]);
  });

  it('certificate issued: a new fingerprint', () => {
    expect(kinds(page('h'), page('h', { tls_fingerprint: 'AA' }))).toEqual(['cert_issued']);
    expect(kinds(page('h', { tls_fingerprint: 'AA' }), page('h', { tls_fingerprint: 'BB' }))).toEqual(['cert_issued']);
    expect(kinds(page('h', { tls_fingerprint: 'AA' }), page('h', { tls_fingerprint: null }))).toEqual([]);
    // Down and back with the certificate it had: not a new one; with another: issued.
    expect(transitionsBetween(nx, page('h', { tls_fingerprint: 'AA' }), true, 'AA').kinds).toEqual(['came_back']);
    expect(transitionsBetween(nx, page('h', { tls_fingerprint: 'BB' }), true, 'AA').kinds).toEqual(['cert_issued', 'came_back']);
    // A CT precertificate and the certificate the site then serves: other fingerprints, one serial — one certificate.
    const fromCt = page('h', { tls_fingerprint: 'PRE', tls_serial: '0c7a11', tls_source: 'ct' });
    expect(kinds(page('h'), fromCt)).toEqual(['cert_issued']);
    expect(kinds(fromCt, page('h', { tls_fingerprint: 'FINAL', tls_serial: '0c7a11', tls_source: 'tls' }))).toEqual([]);
    expect(kinds(fromCt, page('h', { tls_fingerprint: 'OTHER', tls_serial: '0c7a12', tls_source: 'tls' }))).toEqual([
      'cert_issued',
    ]);
    // A certificate any earlier state showed is not issued again (the site falls back to it).
    const withAA = page('h', { tls_fingerprint: 'AA' });
    expect(transitionsBetween(page('h', { tls_fingerprint: 'BB' }), withAA, false, null, ['fp:AA', 'fp:BB']).kinds).toEqual([]);
  });

  it('went offline: NXDOMAIN, no A, HTTP gone', () => {
    expect(transitionsBetween(page(), nx)).toEqual({ kinds: ['offline'], down: true });
    expect(kinds(page(), nsOnly)).toEqual(['offline']);
    expect(kinds(page(), page('h', { http_status: 404 }))).toEqual(['offline']);
    expect(kinds(page(), addr)).toEqual(['offline']);
    expect(kinds(nsOnly, nx)).toEqual(['offline']);
  });

  it('came back only after going offline; still down without an address', () => {
    expect(transitionsBetween(nx, page(), true)).toEqual({ kinds: ['came_back'], down: false });
    expect(kinds(page('h', { http_status: 404 }), page(), true)).toEqual(['came_back']);
    // Not down before: a page appearing is `web_live`, not `came_back`.
    expect(kinds(addr, page(), false)).toEqual(['web_live']);
    // Re-registered without an address: parked, still down.
    expect(transitionsBetween(nx, nsOnly, true)).toEqual({ kinds: ['parked'], down: true });
  });

  it('several at once, in the table order', () => {
    expect(kinds(nsOnly, page('h', { mx: ['mx'], login_form: true, tls_fingerprint: 'AA' }))).toEqual([
      'mx_appeared',
      'web_live',
      'login_form',
      'cert_issued',
    ]);
  });

  it('a DNS failure is no observation', () => {
    expect(transitionsBetween(page(), st({ dns: 'timeout' }), false)).toEqual({ kinds: [], down: false });
    expect(transitionsBetween(st({ dns: 'servfail' }), page(), true)).toEqual({ kinds: [], down: true });
  });

  it('reach orders the states', () => {
    expect([nx, nsOnly, addr, page()].map(reach)).toEqual([0, 1, 2, 3]);
  });

  it('every kind has a Russian name', () => {
    for (const k of TRANSITION_KINDS) expect(TRANSITIONS[k].label).toMatch(/[а-я]/i);
  });
});

describe('page', () => {
  it('the hash ignores scripts, comments, input values, long numbers, whitespace and case', () => {
    const a = '<html><!-- 1 --><script>var t=1</script><p>Вход</p><input name="csrf" value="abc"> 1700000000</html>';
    const b = '<HTML>  <script>var t=2</script><P>Вход</P><input name="csrf" value="xyz">\n 1700000999</HTML>';
    expect(contentHash(a)).toBe(contentHash(b));
    expect(contentHash(a)).not.toBe(contentHash('<p>Другое</p>'));
    expect(normaliseHtml('<A  HREF=x>')).toBe('<a href=x>');
  });

  it('a login form is a password field', () => {
    expect(hasLoginForm('<form><input type="password" name="p"></form>')).toBe(true);
    expect(hasLoginForm("<INPUT TYPE='PASSWORD'>")).toBe(true);
    expect(hasLoginForm('<input autocomplete="current-password">')).toBe(true);
    expect(hasLoginForm('<input type="text" name="password-hint">')).toBe(false);
  });
});
