/*
 * SSRF guard of the snapshot producer: which addresses a check may connect to. Private, loopback,
 * link-local (cloud metadata), CGNAT, multicast, documentation and reserved ranges are refused, also
 * when reached through an IPv4-mapped/NAT64/6to4 IPv6 form. `allowPrivate` (env SNAPSHOT_ALLOW_PRIVATE,
 * tests only) turns the guard off.
 */
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv6 one stands for (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedV4(ip6: string): string | null {
  const s = ip6.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) return dotted[1] ?? null;
  const words = expand(s);
  if (!words) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zero(0, 5) && words[5] === 0xffff) return v4(words[6] as number, words[7] as number);
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) return v4(words[6] as number, words[7] as number);
  if (words[0] === 0x2002) return v4(words[1] as number, words[2] as number);
  return null;
}

/** '2001:db8::1' → eight 16-bit words (null for a malformed address). */
function expand(ip6: string): number[] | null {
  let s = ip6;
  const dot = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dot) {
    const p = (dot[1] as string).split('.').map(Number);
    s = `${s.slice(0, -(dot[1] as string).length)}${(((p[0] as number) << 8) | (p[1] as number)).toString(16)}:${(((p[2] as number) << 8) | (p[3] as number)).toString(16)}`;
  }
  const [head, tail] = s.split('::') as [string, string | undefined];
  const a = head ? head.split(':') : [];
  const b = tail ? tail.split(':') : [];
  const fill = s.includes('::') ? 8 - a.length - b.length : 0;
  const all = [...a, ...Array(fill).fill('0'), ...b];
  if (all.length !== 8) return null;
  return all.map((w) => Number.parseInt(w || '0', 16));
}

/** Is `ip` an address a snapshot may not connect to? Non-addresses are refused too. */
export function isForbiddenAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedV4(bare);
    if (v4 && isIP(v4) === 4) return blocked.check(v4, 'ipv4');
    return blocked.check(bare, 'ipv6');
  }
  return true;
}
