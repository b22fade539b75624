import net from 'node:net';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { incrementRateCounters, purgeRateCounters, readRateCounters } from './rate-limit.store.js';

/**
 * Fixed-window rate limits kept in PostgreSQL (table rate_limits), so every instance counts the
 * same attempts: one upsert per counted request, whatever the number of rules.
 */
export interface RateRule {
  /** unique among the rules counted together; part of the counter's key */
  name: string;
  windowSeconds: number;
  max: number;
  /** per client address (scaled by the multiplier; 0 turns it off), per account name or per mobile number (fixed) */
  per: 'address' | 'name' | 'number';
}

const rule = (name: string, per: RateRule['per'], max: number, windowSeconds: number): RateRule => ({
  name,
  per,
  max,
  windowSeconds,
});

/** The limits of the public account calls (README "Security"). */
export const RATE_RULES = {
  /** password checks (login-in, update-password, change-password): every attempt */
  credentials: [rule('cred.m', 'address', 60, 60)],
  /** failed password checks from one address, across all names */
  credentialFailures: [rule('credfail.15m', 'address', 30, 15 * 60)],
  /** POST accounts (registration) */
  register: [rule('register.h', 'address', 10, 3600)],
  /** sending an SMS code */
  smsByAddress: [rule('sms.h', 'address', 10, 3600)],
  smsByName: [rule('sms-name.m', 'name', 1, 60), rule('sms-name.h', 'name', 5, 3600)],
  /** ...and per number it goes to, whoever asks (the SMS services' own default flow control) */
  smsByNumber: [
    rule('sms-number.m', 'number', 1, 60),
    rule('sms-number.h', 'number', 5, 3600),
    rule('sms-number.d', 'number', 10, 86400),
  ],
  /** binding a mobile with its code */
  bindByAddress: [rule('bind.h', 'address', 10, 3600)],
  bindByName: [rule('bind-name.h', 'name', 10, 3600)],
  /** resetting a password with an SMS code */
  resetByAddress: [rule('reset.h', 'address', 10, 3600)],
  resetByName: [rule('reset-name.h', 'name', 5, 3600)],
  /** the masked mobile of a name (forgot-password page) */
  lookup: [rule('lookup.h', 'address', 30, 3600)],
} satisfies Record<string, RateRule[]>;

/**
 * The client as rate limits and lockouts see it: an IPv4 address, or the /64 network of an IPv6
 * address (one host usually holds a whole /64). IPv4-mapped IPv6 addresses count as IPv4.
 */
export function clientAddress(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const bare = ip.split('%')[0]!.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped) return mapped[1]!;
  if (!net.isIPv6(bare)) return bare;
  const groups = (part: string) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['v4', 'v4'] : [g])) : []);
  const [head = '', tail] = bare.split('::') as [string, string?];
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${all
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** Who a request is counted against: its client address, and the account name or number it names. */
export interface RateSubject {
  address: string;
  name?: string;
  number?: string;
}

interface Counter {
  key: string;
  rule: RateRule;
  windowStart: Date;
}

export class RateLimiter {
  /**
   * @param multiplier scales every per-address limit (RATE_LIMIT_MULTIPLIER); 0 turns them off.
   */
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly multiplier = 1,
  ) {}

  private counters(rules: RateRule[], subject: RateSubject, now: Date): Counter[] {
    const out: Counter[] = [];
    for (const r of rules) {
      if (r.per === 'address' && this.multiplier === 0) continue;
      const who =
        r.per === 'address' ? subject.address : r.per === 'name' ? subject.name?.toLowerCase() : subject.number;
      if (who === undefined) continue;
      const windowMs = r.windowSeconds * 1000;
      const rule = r.per === 'address' ? { ...r, max: r.max * this.multiplier } : r;
      const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
      out.push({ key: `${r.name}:${who}`, rule, windowStart });
    }
    return out;
  }

  /** Counts one request against each rule; answers 429 TooManyRequests when any rule is over. */
  async hit(rules: RateRule[], subject: RateSubject): Promise<void> {
    const now = this.clock.now();
    const counters = this.counters(rules, subject, now);
    this.refuseOver(counters, await this.increment(counters), now, (hits, max) => hits > max);
  }

  /** Counts one event (a failed password check) without refusing anything. */
  async record(rules: RateRule[], subject: RateSubject): Promise<void> {
    await this.increment(this.counters(rules, subject, this.clock.now()));
  }

  private async increment(counters: Counter[]): Promise<{ key: string; hits: number }[]> {
    return incrementRateCounters(
      this.db,
      counters.map((c) => ({
        key: c.key,
        windowStart: c.windowStart,
        expiresAt: new Date(c.windowStart.getTime() + c.rule.windowSeconds * 1000),
      })),
    );
  }

  /** Answers 429 when a rule has already counted its maximum in this window (counts nothing). */
  async check(rules: RateRule[], subject: RateSubject): Promise<void> {
    const now = this.clock.now();
    const counters = this.counters(rules, subject, now);
    if (counters.length === 0) return;
    const rows = await readRateCounters(
      this.db,
      counters.map((c) => c.key),
    );
    const current = rows.filter((r) =>
      counters.some((c) => c.key === r.key && c.windowStart.getTime() === r.windowStart.getTime()),
    );
    this.refuseOver(counters, current, now, (hits, max) => hits >= max);
  }

  private refuseOver(
    counters: Counter[],
    rows: { key: string; hits: number }[],
    now: Date,
    over: (hits: number, max: number) => boolean,
  ): void {
    let retryAfterSeconds = 0;
    for (const c of counters) {
      const row = rows.find((r) => r.key === c.key);
      if (!row || !over(row.hits, c.rule.max)) continue;
      const end = c.windowStart.getTime() + c.rule.windowSeconds * 1000;
      retryAfterSeconds = Math.max(retryAfterSeconds, Math.max(1, Math.ceil((end - now.getTime()) / 1000)));
    }
    if (retryAfterSeconds > 0) throw tooManyRequests(retryAfterSeconds);
  }

  /** Drops counters whose window has ended. */
  async purge(): Promise<void> {
    await purgeRateCounters(this.db, this.clock.now());
  }
}

export function tooManyRequests(retryAfterSeconds: number): AppError {
  return new AppError('TooManyRequests', 'Too many requests, retry later', { retryAfterSeconds });
}
