// The client address a limit counts (issue 38 item 3): an IPv4 address as it is; an IPv6 address by its /64,
// the block one subscriber or host usually holds, so rotating through the 2^64 addresses of one /64 is one
// client; an IPv4-mapped IPv6 address (::ffff:a.b.c.d) as its IPv4 address.
import { isIPv6 } from 'node:net';

export function addressGroup(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => (parseInt(group || '0', 16) || 0).toString(16))
    .join(':')}::/64`;
}
