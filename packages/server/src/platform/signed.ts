import crypto from 'node:crypto';

/**
 * Signed, expiring tokens for links that travel outside the API's bearer token: viewer paths,
 * share paths and download links. HMAC-SHA256 over a base64url JSON payload, with a key derived
 * from the platform secret per purpose, so a token of one kind never passes for another.
 */
export interface SignedPayload {
  /** purpose: viewer, share, download */
  p: string;
  /** expiry, seconds since the epoch */
  x: number;
  [key: string]: unknown;
}

export class Signer {
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly secret: Uint8Array) {}

  private key(purpose: string): Buffer {
    let k = this.keys.get(purpose);
    if (!k) {
      k = crypto.createHmac('sha256', Buffer.from(this.secret)).update(`yyp-signed:${purpose}`).digest();
      this.keys.set(purpose, k);
    }
    return k;
  }

  sign(purpose: string, data: Record<string, unknown>, expiresAt: Date): { token: string; expires: number } {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    const body = Buffer.from(JSON.stringify({ ...data, p: purpose, x: expires })).toString('base64url');
    const mac = crypto.createHmac('sha256', this.key(purpose)).update(body).digest('base64url');
    return { token: `${body}.${mac}`, expires };
  }

  /** The payload of a valid, unexpired token of this purpose, or null. */
  verify(purpose: string, token: string, now: Date): SignedPayload | null {
    const dot = token.indexOf('.');
    if (dot <= 0 || token.length > 4096) return null;
    const body = token.slice(0, dot);
    const mac = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = crypto.createHmac('sha256', this.key(purpose)).update(body).digest();
    if (mac.length !== expected.length || !crypto.timingSafeEqual(mac, expected)) return null;
    let payload: SignedPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SignedPayload;
    } catch {
      return null;
    }
    if (payload.p !== purpose || typeof payload.x !== 'number') return null;
    return payload.x > Math.floor(now.getTime() / 1000) ? payload : null;
  }
}
