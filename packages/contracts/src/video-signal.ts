import { VIDEO_MAX_CANDIDATES, VIDEO_SIGNAL_PART_BYTES, type IceCandidate } from './video.js';

/**
 * Pure helpers of the video signalling: a session description is cut into parts that each fit a
 * live event (PostgreSQL's NOTIFY payload: contracts/live.ts LIVE_MAX_PAYLOAD_BYTES; a Chromium
 * offer with audio, video and many codecs passes it), reassembled on the other side; candidates
 * are sent in batches so an ICE burst stays within the socket's message budget.
 */

/** The UTF-8 bytes a string takes as a JSON string (with its escapes and quotes). */
export function jsonBytes(text: string): number {
  return new TextEncoder().encode(JSON.stringify(text)).length;
}

/** The bytes one character (code unit, or a surrogate pair: 4) costs inside a JSON string. */
function charCost(code: number): number {
  if (
    code === 0x22 ||
    code === 0x5c ||
    code === 0x08 ||
    code === 0x0c ||
    code === 0x0a ||
    code === 0x0d ||
    code === 0x09
  ) {
    return 2;
  }
  if (code < 0x20) return 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  return 3;
}

/** Cuts text into parts whose JSON form (quotes included) is at most maxBytes each, never inside a surrogate pair. */
export function splitSignal(text: string, maxBytes = VIDEO_SIGNAL_PART_BYTES): string[] {
  if (maxBytes < 8) throw new Error('maxBytes too small');
  const budget = maxBytes - 2;
  const parts: string[] = [];
  let start = 0;
  let used = 0;
  for (let i = 0; i < text.length;) {
    const code = text.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length;
    const width = pair ? 2 : 1;
    const cost = pair ? 4 : charCost(code);
    if (used + cost > budget && i > start) {
      parts.push(text.slice(start, i));
      start = i;
      used = 0;
    }
    used += cost;
    i += width;
  }
  parts.push(text.slice(start));
  return parts;
}

/** Collects the parts of descriptions by id; answers the whole text once every part is in. */
export class SignalAssembler {
  private readonly pending = new Map<string, { parts: (string | undefined)[]; got: number; at: number }>();

  constructor(
    private readonly maxPending = 16,
    private readonly maxAgeMs = 30_000,
  ) {}

  /** The whole text when this part completes it, else null (a repeat or an inconsistent part is ignored). */
  add(id: string, index: number, count: number, part: string, now = Date.now()): string | null {
    if (count === 1 && index === 0) return part;
    for (const [key, entry] of this.pending) {
      if (now - entry.at > this.maxAgeMs) this.pending.delete(key);
    }
    let entry = this.pending.get(id);
    if (!entry) {
      if (this.pending.size >= this.maxPending) {
        const oldest = this.pending.keys().next().value;
        if (oldest !== undefined) this.pending.delete(oldest);
      }
      entry = { parts: new Array<string | undefined>(count).fill(undefined), got: 0, at: now };
      this.pending.set(id, entry);
    }
    if (entry.parts.length !== count || index < 0 || index >= count || entry.parts[index] !== undefined) return null;
    entry.parts[index] = part;
    entry.got += 1;
    if (entry.got < count) return null;
    this.pending.delete(id);
    return entry.parts.join('');
  }

  get size(): number {
    return this.pending.size;
  }
}

/** Splits candidates into batches of at most VIDEO_MAX_CANDIDATES. */
export function batchCandidates(candidates: IceCandidate[], max = VIDEO_MAX_CANDIDATES): IceCandidate[][] {
  const batches: IceCandidate[][] = [];
  for (let i = 0; i < candidates.length; i += max) batches.push(candidates.slice(i, i + max));
  return batches;
}

/**
 * Perfect negotiation's roles: of two peers the one with the smaller id is polite (it rolls back
 * its own offer when offers collide), so exactly one of each pair is.
 */
export function isPolite(self: string, other: string): boolean {
  return self < other;
}

/**
 * coturn's REST-API credentials (use-auth-secret): username `<expiry seconds>:<accountId>`,
 * credential base64(HMAC-SHA1(secret, username)). The HMAC is the caller's (node:crypto on the
 * server), so this stays free of platform code; it only builds the username.
 */
export function turnUsername(expiresAt: Date, accountId: string): string {
  return `${Math.floor(expiresAt.getTime() / 1000)}:${accountId}`;
}
