// The client a login limit counts (issue 38 item 3): IPv6 by its /64, so rotating addresses of one /64 is one.
import { describe, expect, it } from 'vitest';
import { addressGroup } from './address-group';

describe('addressGroup', () => {
  it('keeps an IPv4 address, and reads an IPv4-mapped IPv6 one as IPv4', () => {
    expect(addressGroup('198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('::ffff:198.51.100.7')).toBe('198.51.100.7');
  });

  it('groups IPv6 addresses by /64, in any spelling', () => {
    const group = addressGroup('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(group).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:0db8:0001:0002::1')).toBe(group);
    expect(addressGroup('2001:db8:1:2:ffff::')).toBe(group);
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('2001:db8:1:3::1')).not.toBe(group);
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
  });
});
