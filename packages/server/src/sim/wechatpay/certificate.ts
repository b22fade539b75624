import { createSign, generateKeyPairSync, randomBytes, X509Certificate, type KeyObject } from 'node:crypto';

/**
 * A self-signed X.509 v3 certificate for the simulator's platform key, written in DER by hand:
 * node:crypto parses certificates (X509Certificate) but does not make them, and the few fields a
 * WeChat Pay platform certificate needs (serial, names, validity, the RSA key, sha256WithRSA) do not
 * justify an ASN.1 library. X509Certificate reads the result back, which checks the encoding.
 */

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

const sequence = (...items: Buffer[]) => tlv(0x30, ...items);
const set = (...items: Buffer[]) => tlv(0x31, ...items);

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const arc of rest) {
    const base128: number[] = [arc % 128];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) base128.unshift(0x80 | (v % 128));
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** YYMMDDHHMMSSZ (UTCTime, years 1950–2049) */
function utcTime(d: Date): Buffer {
  const text = d.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z';
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

function name(commonName: string, organization: string): Buffer {
  const attribute = (type: string, value: string) => set(sequence(oid(type), tlv(0x0c, Buffer.from(value, 'utf8'))));
  return sequence(attribute('2.5.4.6', 'CN'), attribute('2.5.4.10', organization), attribute('2.5.4.3', commonName));
}

const SHA256_WITH_RSA = sequence(oid('1.2.840.113549.1.1.11'), Buffer.from([0x05, 0x00]));

export interface PlatformCertificate {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** uppercase hex, as WeChat Pay writes it in Wechatpay-Serial */
  serial: string;
  pem: string;
}

/** An RSA-2048 key pair and its self-signed certificate, valid from an hour ago for `days`. */
export function makePlatformCertificate(opts: { commonName: string; now?: Date; days?: number }): PlatformCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const serialBytes = randomBytes(20);
  serialBytes[0] = ((serialBytes[0] ?? 0) & 0x7f) | 0x10; // positive, 20 bytes long, no leading zero
  const now = opts.now ?? new Date();
  const notBefore = new Date(now.getTime() - 3600_000);
  const notAfter = new Date(now.getTime() + (opts.days ?? 365) * 86400_000);
  const subject = name(opts.commonName, 'yyp WeChat Pay simulator');
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))), // [0] version v3
    tlv(0x02, serialBytes),
    SHA256_WITH_RSA,
    subject, // issuer: self-signed
    sequence(utcTime(notBefore), utcTime(notAfter)),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = createSign('sha256').update(tbs).sign(privateKey);
  const der = sequence(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.from([0]), signature));
  const pem = `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd()}\n-----END CERTIFICATE-----\n`;
  const x509 = new X509Certificate(pem);
  if (!x509.verify(publicKey)) throw new Error('the simulator could not make its platform certificate');
  return { privateKey, publicKey, serial: x509.serialNumber.toUpperCase(), pem };
}
