import crypto from 'node:crypto';

const PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Secrets the server must read back (a group's /web HMAC key) kept sealed at rest: AES-256-GCM
 * under a key derived (HKDF-SHA256) from the server's secret and the purpose, so a copy of the
 * database alone neither shows them nor lets anyone sign links. A value written before sealing
 * existed (no `v1.` prefix) still opens as it is and is sealed at its next rotation. A new server
 * secret (JWT_SECRET) makes sealed values unreadable: the groups rotate their secrets then.
 */
export class Sealer {
  private readonly key: Buffer;

  constructor(secret: Uint8Array, purpose: string) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', secret, 'yyp-sealed', purpose, 32));
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The plain value, or null when it was sealed under another key or altered. */
  open(stored: string): string | null {
    if (!stored.startsWith(PREFIX)) return stored;
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
