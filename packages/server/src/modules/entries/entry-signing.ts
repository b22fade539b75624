import crypto from 'node:crypto';
import { entryCanonical, type EntryPayload } from '@yyp/contracts';

/** The signature a hospital system sends: lower-case hex HMAC-SHA256 of entryCanonical, keyed by the secret's UTF-8 bytes. */
export function signEntry(secret: string, payload: Omit<EntryPayload, 'signature'>): string {
  return crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(entryCanonical(payload)).digest('hex');
}

/** The payload with its signature as it travels: base64url (no padding) of its JSON. */
export function encodeEntry(secret: string, payload: Omit<EntryPayload, 'signature'>): string {
  const signed: EntryPayload = { ...payload, signature: signEntry(secret, payload) };
  return Buffer.from(JSON.stringify(signed), 'utf8').toString('base64url');
}

/** The JSON inside a travelling payload, or undefined when it is no base64url of JSON. */
export function decodeEntry(text: string): unknown {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Constant-time check of the payload's signature against the secret. */
export function entrySignatureMatches(secret: string, payload: EntryPayload): boolean {
  const { signature, ...fields } = payload;
  const expected = Buffer.from(signEntry(secret, fields), 'hex');
  return crypto.timingSafeEqual(Buffer.from(signature, 'hex'), expected);
}
