import { randomBytes, X509Certificate, type KeyObject } from 'node:crypto';
import { Aes, Formatter, Rsa } from 'wechatpay-axios-plugin';

/**
 * The wire crypto of WeChat Pay API v3, on wechatpay-axios-plugin's Rsa (sha256WithRSAEncryption),
 * Formatter (the signed messages and the Authorization header) and Aes.AesGcm (AEAD_AES_256_GCM):
 * - a request carries `Authorization: WECHATPAY2-SHA256-RSA2048 mchid=…,serial_no=…,timestamp=…,
 *   nonce_str=…,signature=…`, the merchant key's signature of "METHOD\nURI\nTS\nNONCE\nBODY\n";
 * - an answer and a notification carry Wechatpay-Timestamp/-Nonce/-Signature/-Serial, the platform
 *   key's signature of "TS\nNONCE\nBODY\n", checked with the certificate of that serial;
 * - a notification's resource is AES-256-GCM with the APIv3 key, its nonce and associated data.
 * The simulator (sim/wechatpay) uses the same functions for the other side.
 */

export const SIGNATURE_SCHEME = 'WECHATPAY2-SHA256-RSA2048';
/** WeChat Pay and its SDKs refuse a signed message more than 5 minutes off the local clock. */
export const MAX_CLOCK_SKEW_SECONDS = 300;

export interface SigningKey {
  /** merchant: the API certificate's serial (serial_no); platform: Wechatpay-Serial */
  serial: string;
  privateKey: KeyObject;
}

export interface SignedAt {
  /** Unix seconds */
  timestamp: number;
  nonce: string;
}

export function freshSignedAt(now: Date): SignedAt {
  return { timestamp: Math.floor(now.getTime() / 1000), nonce: Formatter.nonce(32) };
}

/** The Authorization header of a merchant request (uri: path and query, as sent). */
export function authorizationHeader(
  mchid: string,
  key: SigningKey,
  request: { method: string; uri: string; body: string },
  at: SignedAt,
): string {
  const message = Formatter.request(request.method, request.uri, at.timestamp, at.nonce, request.body);
  return Formatter.authorization(mchid, at.nonce, Rsa.sign(message, key.privateKey), at.timestamp, key.serial);
}

export interface AuthorizationParts {
  mchid: string;
  serial: string;
  timestamp: string;
  nonce: string;
  signature: string;
}

/** The parts of an Authorization header, or null when it is not WECHATPAY2-SHA256-RSA2048 with all five. */
export function parseAuthorization(header: string | undefined): AuthorizationParts | null {
  if (!header?.startsWith(`${SIGNATURE_SCHEME} `)) return null;
  const fields = new Map<string, string>();
  for (const match of header.slice(SIGNATURE_SCHEME.length + 1).matchAll(/(\w+)="([^"]*)"/g)) {
    fields.set(match[1] ?? '', match[2] ?? '');
  }
  const [mchid, serial, timestamp, nonce, signature] = [
    'mchid',
    'serial_no',
    'timestamp',
    'nonce_str',
    'signature',
  ].map((k) => fields.get(k));
  if (!mchid || !serial || !timestamp || !nonce || !signature) return null;
  return { mchid, serial, timestamp, nonce, signature };
}

/** Does the merchant's signature of this request verify with its public key? */
export function requestSignatureValid(
  parts: AuthorizationParts,
  request: { method: string; uri: string; body: string },
  merchantPublicKey: KeyObject,
): boolean {
  const message = Formatter.request(request.method, request.uri, parts.timestamp, parts.nonce, request.body);
  return safeVerify(message, parts.signature, merchantPublicKey);
}

/** The Wechatpay-* headers of a signed answer or notification. */
export function signedHeaders(key: SigningKey, body: string, at: SignedAt): Record<string, string> {
  return {
    'Wechatpay-Timestamp': String(at.timestamp),
    'Wechatpay-Nonce': at.nonce,
    'Wechatpay-Signature': Rsa.sign(Formatter.response(at.timestamp, at.nonce, body), key.privateKey),
    'Wechatpay-Serial': key.serial,
    'Wechatpay-Signature-Type': SIGNATURE_SCHEME,
  };
}

/** Reads a header whatever its case (Node lowercases incoming ones; fetch's Headers ignore case). */
export type HeaderReader = (name: string) => string | undefined;

export function headerReader(headers: Record<string, string | string[] | undefined>): HeaderReader {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v[0] : v]));
  return (name) => lower.get(name.toLowerCase());
}

/**
 * Checks a platform-signed message: the serial names a known platform key, the timestamp is within
 * 5 minutes of now, the signature verifies over the exact body. Answers null when it holds, else why not.
 */
export function signedMessageProblem(
  header: HeaderReader,
  body: string,
  platformKeys: ReadonlyMap<string, KeyObject>,
  now: Date,
): string | null {
  const timestamp = header('Wechatpay-Timestamp');
  const nonce = header('Wechatpay-Nonce');
  const signature = header('Wechatpay-Signature');
  const serial = header('Wechatpay-Serial');
  if (!timestamp || !nonce || !signature || !serial) return 'the Wechatpay-* signature headers are missing';
  const type = header('Wechatpay-Signature-Type');
  if (type !== undefined && type !== SIGNATURE_SCHEME) return `unknown signature type ${type}`;
  const key = platformKeys.get(serial.toUpperCase()) ?? platformKeys.get(serial);
  if (!key) return `no platform certificate or public key with serial ${serial}`;
  if (!/^\d{1,12}$/.test(timestamp)) return 'the timestamp is not a number';
  if (Math.abs(Math.floor(now.getTime() / 1000) - Number(timestamp)) > MAX_CLOCK_SKEW_SECONDS) {
    return `the timestamp ${timestamp} is more than ${MAX_CLOCK_SKEW_SECONDS} s from now`;
  }
  if (!safeVerify(Formatter.response(timestamp, nonce, body), signature, key)) return 'the signature does not verify';
  return null;
}

function safeVerify(message: string, signature: string, key: KeyObject): boolean {
  try {
    return Rsa.verify(message, signature, key);
  } catch {
    return false;
  }
}

export interface EncryptedResource {
  algorithm: string;
  ciphertext: string;
  associated_data?: string;
  nonce: string;
  original_type?: string;
}

export const RESOURCE_ALGORITHM = 'AEAD_AES_256_GCM';

/** Decrypts a notification's resource with the APIv3 key; throws when it is not AEAD_AES_256_GCM or does not authenticate. */
export function decryptResource(resource: EncryptedResource, apiV3Key: string): string {
  if (resource.algorithm !== RESOURCE_ALGORITHM) throw new Error(`unknown resource algorithm ${resource.algorithm}`);
  return Aes.AesGcm.decrypt(resource.ciphertext, Buffer.from(apiV3Key), resource.nonce, resource.associated_data ?? '');
}

export function encryptResource(
  plaintext: string,
  apiV3Key: string,
  originalType: string,
  associatedData: string = originalType,
): EncryptedResource {
  // A 12-character nonce, as WeChat Pay sends (AES-GCM's 96-bit IV).
  const nonce = randomBytes(9).toString('base64url').slice(0, 12);
  return {
    original_type: originalType,
    algorithm: RESOURCE_ALGORITHM,
    ciphertext: Aes.AesGcm.encrypt(plaintext, Buffer.from(apiV3Key), nonce, associatedData),
    associated_data: associatedData,
    nonce,
  };
}

/**
 * Platform keys by serial from platform certificates (PEM); a public key with its id (PUB_KEY_ID_…)
 * may be added. Given `now`, a certificate outside its validity is left out (one being rotated out).
 */
export function platformKeysFromCertificates(pems: readonly string[], now?: Date): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const pem of pems) {
    const cert = new X509Certificate(pem);
    const t = now?.getTime();
    if (t !== undefined && (t < Date.parse(cert.validFrom) || t > Date.parse(cert.validTo))) continue;
    keys.set(cert.serialNumber.toUpperCase(), cert.publicKey);
  }
  return keys;
}
