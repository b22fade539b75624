import { randomBytes, randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { rfc3339China } from '../../platform/wechatpay/client.js';
import { encryptResource, freshSignedAt, signedHeaders, type SigningKey } from '../../platform/wechatpay/signature.js';

/**
 * How a test spoils a notification: `signature` (signed over other bytes), `serial` (an unknown
 * Wechatpay-Serial), `timestamp` (signed 10 minutes ago), `ciphertext` (a flipped byte, re-signed so
 * only the AES-GCM tag catches it), `amount` (a validly signed and encrypted resource whose amount
 * is one fen more than the order's: the merchant must compare it with its own row).
 */
export type Tamper = 'signature' | 'serial' | 'timestamp' | 'ciphertext' | 'amount';

export interface Delivery {
  url: string;
  eventType: string;
  /** out_trade_no or out_refund_no */
  ref: string;
  tamper: Tamper | undefined;
  /** the merchant's HTTP status; null when it could not be reached */
  status: number | null;
  error: string | undefined;
  at: Date;
  attempt: number;
}

export interface NotifierOptions {
  platform: SigningKey;
  apiV3Key: string;
  now: () => Date;
  /** delays of the retries after a failed delivery (WeChat Pay retries for a day; the simulator briefly) */
  retryDelaysMs: readonly number[];
}

export interface Notice {
  url: string;
  eventType: string;
  summary: string;
  /** transaction | refund */
  originalType: string;
  resource: Record<string, unknown>;
  ref: string;
}

/** 127.0.0.0/8, ::1 and localhost only: the simulator never posts beyond loopback. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
    host = parsed.hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

export class Notifier {
  readonly deliveries: Delivery[] = [];
  /** replaces the origin of every notify_url (e.g. the yyp server's loopback address behind a public PUBLIC_BASE_URL) */
  notifyOrigin: string | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly pending = new Set<Promise<unknown>>();
  private closed = false;

  constructor(private readonly o: NotifierOptions) {}

  /**
   * The body WeChat Pay would post, spoilt as asked: one notification id and ciphertext, which
   * every delivery of it (repeats and retries) carries again, each signed when it is sent.
   */
  body(n: Notice, tamper?: Tamper): string {
    let plain = n.resource;
    if (tamper === 'amount') {
      const amount = plain.amount as Record<string, number>;
      const more = (k: string) => (typeof amount[k] === 'number' ? { [k]: (amount[k] ?? 0) + 1 } : {});
      plain = { ...plain, amount: { ...amount, ...more('total'), ...more('payer_total'), ...more('refund') } };
    }
    const resource = encryptResource(JSON.stringify(plain), this.o.apiV3Key, n.originalType);
    if (tamper === 'ciphertext') {
      const bytes = Buffer.from(resource.ciphertext, 'base64');
      bytes[0] = (bytes[0] ?? 0) ^ 0x01;
      resource.ciphertext = bytes.toString('base64');
    }
    return JSON.stringify({
      id: randomUUID(),
      create_time: rfc3339China(this.o.now()),
      resource_type: 'encrypt-resource',
      event_type: n.eventType,
      summary: n.summary,
      resource,
    });
  }

  /** The Wechatpay-* headers of one delivery, spoilt as asked. */
  headers(body: string, tamper?: Tamper): Record<string, string> {
    const now = this.o.now();
    const at = freshSignedAt(tamper === 'timestamp' ? new Date(now.getTime() - 600_000) : now);
    const headers = signedHeaders(this.o.platform, tamper === 'signature' ? `${body} ` : body, at);
    if (tamper === 'serial') headers['Wechatpay-Serial'] = randomBytes(20).toString('hex').toUpperCase();
    return headers;
  }

  /** Posts the notice `times` times at once; a failed delivery is retried after the configured delays. */
  async send(n: Notice, opts: { times?: number; tamper?: Tamper } = {}): Promise<Delivery[]> {
    const body = this.body(n, opts.tamper);
    const sends = Array.from({ length: opts.times ?? 1 }, () => this.deliver(n, body, opts.tamper, 1));
    return this.track(Promise.all(sends));
  }

  private async deliver(n: Notice, body: string, tamper: Tamper | undefined, attempt: number): Promise<Delivery> {
    const url = this.notifyOrigin ? this.notifyOrigin.replace(/\/+$/, '') + pathOf(n.url) : n.url;
    const delivery: Delivery = {
      url,
      eventType: n.eventType,
      ref: n.ref,
      tamper,
      status: null,
      error: undefined,
      at: this.o.now(),
      attempt,
    };
    this.deliveries.push(delivery);
    if (!isLoopbackUrl(url)) {
      delivery.error = 'not a loopback address: the simulator posts nothing beyond loopback';
      return delivery;
    }
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...this.headers(body, tamper), 'Content-Type': 'application/json', 'User-Agent': 'Mozilla/4.0' },
        body,
        redirect: 'error',
        signal: AbortSignal.timeout(5000),
      });
      await res.arrayBuffer();
      delivery.status = res.status;
    } catch (err) {
      delivery.error = String(err);
    }
    const failed = delivery.status === null || delivery.status < 200 || delivery.status > 299;
    const delay = this.o.retryDelaysMs[attempt - 1];
    if (failed && tamper === undefined && delay !== undefined && !this.closed) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.track(this.deliver(n, body, tamper, attempt + 1));
      }, delay);
      this.timers.add(timer);
    }
    return delivery;
  }

  /** Runs `fn` after `ms` (0: at once), counted by whenIdle and cancelled by close or the answered function. */
  later(ms: number, fn: () => Promise<unknown>): () => void {
    if (this.closed) return () => {};
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.track(fn());
    }, ms);
    this.timers.add(timer);
    return () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    };
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    void p.catch(() => undefined).finally(() => this.pending.delete(p));
    return p;
  }

  /** Resolves once no delivery, retry or delayed refund is waiting. */
  async whenIdle(): Promise<void> {
    while (this.pending.size > 0 || this.timers.size > 0) {
      await Promise.allSettled([...this.pending]);
      if (this.pending.size === 0 && this.timers.size > 0) await new Promise((r) => setTimeout(r, 10));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.pending]);
  }
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return '/';
  }
}
