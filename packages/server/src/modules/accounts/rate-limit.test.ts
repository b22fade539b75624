import { describe, expect, it } from 'vitest';
import { clientAddress } from './rate-limit.js';

describe('clientAddress', () => {
  it('keeps IPv4 addresses and unwraps IPv4-mapped IPv6 ones', () => {
    expect(clientAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddress('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('counts an IPv6 address by its /64 network, whatever its spelling', () => {
    const a = clientAddress('2001:db8:85a3:1:aaaa:bbbb:cccc:dddd');
    expect(a).toBe('2001:db8:85a3:1::/64');
    expect(clientAddress('2001:0db8:85a3:0001::1')).toBe(a);
    expect(clientAddress('2001:DB8:85A3:1:ffff::9%eth0')).toBe(a);
    expect(clientAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientAddress('::1')).toBe('0:0:0:0::/64');
    expect(clientAddress('fe80::1:2:3:4:5')).toBe('fe80:0:0:1::/64');
    expect(clientAddress('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('answers a placeholder when the address is unknown', () => {
    expect(clientAddress(undefined)).toBe('unknown');
    expect(clientAddress('')).toBe('unknown');
  });
});
