import { describe, expect, it } from 'vitest';
import { LIVE_MAX_PAYLOAD_BYTES } from './live.js';
import {
  VIDEO_SIGNAL_PART_BYTES,
  videoEnvelopeSchema,
  videoRoomWindow,
  videoSignalSchema,
  videoTokenExpiry,
  videoTopic,
  videoWindowState,
} from './video.js';
import { SignalAssembler, batchCandidates, isPolite, jsonBytes, splitSignal, turnUsername } from './video-signal.js';
import { videoCalls } from './video-calls.js';

const at = new Date('2026-11-27T08:00:00Z');
const min = 60_000;

describe('video room window', () => {
  it('opens 30 minutes before the scheduled time and closes 12 hours after it', () => {
    expect(videoRoomWindow(at)).toEqual({
      opensAt: new Date('2026-11-27T07:30:00Z'),
      closesAt: new Date('2026-11-27T20:00:00Z'),
    });
    expect(videoWindowState(new Date(at.getTime() - 30 * min - 1), at)).toBe('early');
    expect(videoWindowState(new Date(at.getTime() - 30 * min), at)).toBe('open');
    expect(videoWindowState(at, at)).toBe('open');
    expect(videoWindowState(new Date(at.getTime() + 12 * 60 * min - 1), at)).toBe('open');
    expect(videoWindowState(new Date(at.getTime() + 12 * 60 * min), at)).toBe('late');
  });

  it('a token lives two hours, never past the close', () => {
    expect(videoTokenExpiry(at, at)).toEqual(new Date('2026-11-27T10:00:00Z'));
    expect(videoTokenExpiry(new Date('2026-11-27T19:00:00Z'), at)).toEqual(new Date('2026-11-27T20:00:00Z'));
  });

  it('names the room topic rtc:<roomId> and the calls at their paths', () => {
    expect(videoTopic('c1')).toBe('rtc:c1');
    expect(videoCalls.start.path).toBe('video-meetings/start');
    expect(videoCalls.token.path).toBe('video-meetings/:roomId/token');
    expect(videoCalls.telemedVideo.path).toBe('consultations/:id/telemed-video');
  });
});

describe('signalling messages', () => {
  const media = { audio: true, video: false, screen: false };
  it('accepts each kind and refuses unknown fields, a part beyond its count and an empty batch', () => {
    for (const m of [
      { kind: 'join', media },
      { kind: 'here', to: 'p2', media },
      { kind: 'state', media },
      { kind: 'leave' },
      { kind: 'description', to: 'p2', type: 'offer', id: 'd1', index: 0, count: 2, sdp: 'v=0' },
      {
        kind: 'candidates',
        to: 'p2',
        candidates: [{ candidate: 'candidate:1 1 udp 1 1.2.3.4 5 typ host', sdpMid: '0' }],
      },
    ]) {
      expect(videoSignalSchema.safeParse(m).success, m.kind).toBe(true);
    }
    expect(videoSignalSchema.safeParse({ kind: 'join', media, from: 'p9' }).success).toBe(false);
    expect(videoSignalSchema.safeParse({ kind: 'state', media: { audio: true } }).success).toBe(false);
    expect(
      videoSignalSchema.safeParse({ kind: 'description', to: 'p', type: 'offer', id: 'd', index: 2, count: 2, sdp: '' })
        .success,
    ).toBe(false);
    expect(videoSignalSchema.safeParse({ kind: 'candidates', to: 'p', candidates: [] }).success).toBe(false);
    expect(videoSignalSchema.safeParse({ kind: 'shout' }).success).toBe(false);
    expect(
      videoSignalSchema.safeParse({
        kind: 'description',
        to: 'p',
        type: 'offer',
        id: 'd',
        index: 0,
        count: 1,
        sdp: 'x'.repeat(VIDEO_SIGNAL_PART_BYTES + 1),
      }).success,
    ).toBe(false);
  });

  it('delivers a signal with the sender the server stamped', () => {
    const ok = videoEnvelopeSchema.safeParse({
      from: { peerId: 'p1', accountId: 'a1', name: '张医生' },
      data: { kind: 'leave' },
    });
    expect(ok.success).toBe(true);
    expect(videoEnvelopeSchema.safeParse({ data: { kind: 'leave' } }).success).toBe(false);
  });
});

describe('description parts', () => {
  /** an SDP the size of Chromium's offer with audio, video and a screen track (~12 kB with CRLFs) */
  const sdp = Array.from({ length: 400 }, (_, i) => `a=rtpmap:${i} VP8/90000 "x"\\`).join('\r\n');

  it('cuts a long description into parts each within the budget as JSON, and joins them back', () => {
    expect(jsonBytes(sdp)).toBeGreaterThan(LIVE_MAX_PAYLOAD_BYTES);
    const parts = splitSignal(sdp);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(jsonBytes(part)).toBeLessThanOrEqual(VIDEO_SIGNAL_PART_BYTES);
    expect(parts.join('')).toBe(sdp);
    const assembler = new SignalAssembler();
    const order = parts.map((_, i) => i).reverse();
    const done = order.map((i) => assembler.add('d1', i, parts.length, parts[i]!));
    expect(done.slice(0, -1).every((d) => d === null)).toBe(true);
    expect(done.at(-1)).toBe(sdp);
    expect(assembler.size).toBe(0);
  });

  it('never splits a surrogate pair and counts multi-byte characters by their bytes', () => {
    const text = '😀'.repeat(50) + '中'.repeat(50);
    const parts = splitSignal(text, 40);
    for (const part of parts) {
      expect(jsonBytes(part)).toBeLessThanOrEqual(40);
      expect(part).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
    expect(parts.join('')).toBe(text);
    expect(splitSignal('')).toEqual(['']);
  });

  it('ignores a repeated or inconsistent part and forgets stale ones', () => {
    const a = new SignalAssembler(16, 1000);
    expect(a.add('d', 0, 2, 'ab', 0)).toBeNull();
    expect(a.add('d', 0, 2, 'zz', 0)).toBeNull();
    expect(a.add('d', 1, 3, 'zz', 0)).toBeNull();
    expect(a.add('d', 1, 2, 'cd', 0)).toBe('abcd');
    expect(a.add('e', 0, 2, 'ab', 0)).toBeNull();
    expect(a.add('f', 0, 2, 'x', 5000)).toBeNull();
    expect(a.size).toBe(1);
    expect(a.add('single', 0, 1, 'whole')).toBe('whole');
  });
});

describe('candidates, roles and TURN names', () => {
  it('batches candidates by 20', () => {
    const c = Array.from({ length: 45 }, (_, i) => ({ candidate: `c${i}` }));
    expect(batchCandidates(c).map((b) => b.length)).toEqual([20, 20, 5]);
  });
  it('makes exactly one of two peers polite', () => {
    expect(isPolite('a', 'b')).toBe(true);
    expect(isPolite('b', 'a')).toBe(false);
  });
  it("writes coturn's REST username as <expiry seconds>:<account>", () => {
    expect(turnUsername(new Date('2026-11-27T10:00:00Z'), 'acc1')).toBe('1795773600:acc1');
  });
});
