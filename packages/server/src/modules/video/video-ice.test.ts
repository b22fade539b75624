import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { iceServersFor, turnCredential } from './video-ice.js';
import { iceUrls } from '../../platform/config.js';

describe('ICE servers for a participant', () => {
  const expires = new Date('2026-11-27T10:00:00Z');

  it('are none without configuration (host candidates only)', () => {
    expect(iceServersFor(undefined, 'acc1', expires)).toEqual([]);
    expect(iceServersFor({ urls: [] }, 'acc1', expires)).toEqual([]);
  });

  it("give TURN coturn's REST credentials: <expiry>:<account> and base64 HMAC-SHA1 of it", () => {
    const servers = iceServersFor(
      {
        urls: ['stun:turn.example.org:3478', 'turn:turn.example.org:3478', 'turns:turn.example.org:5349'],
        secret: 's3cret',
      },
      'acc1',
      expires,
    );
    const username = '1795773600:acc1';
    expect(servers).toEqual([
      { urls: ['stun:turn.example.org:3478'] },
      {
        urls: ['turn:turn.example.org:3478', 'turns:turn.example.org:5349'],
        username,
        credential: crypto.createHmac('sha1', 's3cret').update(username).digest('base64'),
      },
    ]);
    expect(turnCredential('s3cret', username)).toBe(servers[1]!.credential);
  });

  it('leave TURN out without the secret (coturn would refuse it)', () => {
    expect(iceServersFor({ urls: ['turn:127.0.0.1:3478'] }, 'acc1', expires)).toEqual([]);
  });

  it('read YYP_TURN_URLS as a list of stun/turn URLs and refuse anything else', () => {
    expect(iceUrls('turn:127.0.0.1:3478?transport=udp, stun:a.example.org')).toEqual([
      'turn:127.0.0.1:3478?transport=udp',
      'stun:a.example.org',
    ]);
    expect(iceUrls(undefined)).toEqual([]);
    expect(() => iceUrls('http://evil.example.org')).toThrow(/YYP_TURN_URLS/);
  });
});
