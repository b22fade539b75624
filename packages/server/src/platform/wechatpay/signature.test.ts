import { createSign, generateKeyPairSync, X509Certificate } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makePlatformCertificate } from '../../sim/wechatpay/certificate.js';
import {
  authorizationHeader,
  decryptResource,
  encryptResource,
  headerReader,
  parseAuthorization,
  platformKeysFromCertificates,
  requestSignatureValid,
  signedHeaders,
  signedMessageProblem,
} from './signature.js';

const platform = makePlatformCertificate({ commonName: 'test platform' });
const keys = platformKeysFromCertificates([platform.pem]);
const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
const apiV3Key = '0123456789abcdefABCDEF0123456789';
const at = new Date('2026-11-27T10:00:00Z');
const ts = Math.floor(at.getTime() / 1000);

describe('the simulator platform certificate', () => {
  it('is a self-signed X.509 v3 certificate of the platform key with a 40-digit hex serial', () => {
    const cert = new X509Certificate(platform.pem);
    expect(platform.serial).toMatch(/^[0-9A-F]{40}$/);
    expect(cert.serialNumber.toUpperCase()).toBe(platform.serial);
    expect(cert.verify(platform.publicKey)).toBe(true);
    expect(cert.subject).toContain('CN=test platform');
    expect(cert.issuer).toBe(cert.subject);
    expect(new Date(cert.validFrom).getTime()).toBeLessThan(Date.now());
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now() + 300 * 86400_000);
    expect(keys.get(platform.serial)?.equals(platform.publicKey)).toBe(true);
  });
});

describe('request signatures (Authorization)', () => {
  const request = { method: 'POST', uri: '/v3/pay/transactions/native', body: '{"a":1}' };
  const header = authorizationHeader('1900000109', { serial: 'ABC123', privateKey: merchant.privateKey }, request, {
    timestamp: ts,
    nonce: 'N0NCE',
  });

  it('writes the WECHATPAY2-SHA256-RSA2048 header over METHOD, URI, timestamp, nonce and body', () => {
    expect(header).toMatch(
      /^WECHATPAY2-SHA256-RSA2048 mchid="1900000109",serial_no="ABC123",timestamp="\d+",nonce_str="N0NCE",signature="[A-Za-z0-9+/=]+"$/,
    );
    const parts = parseAuthorization(header);
    expect(parts).toMatchObject({ mchid: '1900000109', serial: 'ABC123', timestamp: String(ts), nonce: 'N0NCE' });
    // The same message signed with node:crypto directly: the SDK signs exactly what the API documents.
    const expected = createSign('RSA-SHA256')
      .update(`POST\n/v3/pay/transactions/native\n${ts}\nN0NCE\n{"a":1}\n`)
      .sign(merchant.privateKey, 'base64');
    expect(parts?.signature).toBe(expected);
    expect(requestSignatureValid(parts!, request, merchant.publicKey)).toBe(true);
  });

  it('does not verify for another body, URI, method or key', () => {
    const parts = parseAuthorization(header)!;
    expect(requestSignatureValid(parts, { ...request, body: '{"a":2}' }, merchant.publicKey)).toBe(false);
    expect(requestSignatureValid(parts, { ...request, uri: '/v3/refund/domestic/refunds' }, merchant.publicKey)).toBe(
      false,
    );
    expect(requestSignatureValid(parts, { ...request, method: 'GET' }, merchant.publicKey)).toBe(false);
    expect(requestSignatureValid(parts, request, platform.publicKey)).toBe(false);
    expect(requestSignatureValid({ ...parts, signature: 'not base64!' }, request, merchant.publicKey)).toBe(false);
  });

  it('parses only complete headers of its scheme', () => {
    expect(parseAuthorization(undefined)).toBeNull();
    expect(parseAuthorization('Bearer x')).toBeNull();
    expect(parseAuthorization(header.replace(/,nonce_str="[^"]*"/, ''))).toBeNull();
  });
});

describe('signed answers and notifications (Wechatpay-* headers)', () => {
  const body = '{"code_url":"weixin://wxpay/bizpayurl?pr=abc"}';
  const signed = signedHeaders(platform, body, { timestamp: ts, nonce: 'abc' });
  const check = (headers: Record<string, string>, text = body, now = at) =>
    signedMessageProblem(headerReader(headers), text, keys, now);

  it('verifies the platform signature of the exact body within 5 minutes of the timestamp', () => {
    expect(check(signed)).toBeNull();
    expect(check(signed, body, new Date(at.getTime() + 300_000))).toBeNull();
    expect(check(signed, body, new Date(at.getTime() - 300_000))).toBeNull();
    const lower = Object.fromEntries(Object.entries(signed).map(([k, v]) => [k.toLowerCase(), v]));
    expect(check(lower)).toBeNull();
  });

  it('refuses a stale or future timestamp, an unknown serial, a changed body, a missing header', () => {
    expect(check(signed, body, new Date(at.getTime() + 301_000))).toMatch(/300 s/);
    expect(check(signed, body, new Date(at.getTime() - 301_000))).toMatch(/300 s/);
    expect(check({ ...signed, 'Wechatpay-Serial': 'FFFF' })).toMatch(/serial FFFF/);
    expect(check(signed, `${body} `)).toMatch(/does not verify/);
    expect(check({ ...signed, 'Wechatpay-Timestamp': String(ts + 1) })).toMatch(/does not verify/);
    expect(check({ ...signed, 'Wechatpay-Nonce': 'abd' })).toMatch(/does not verify/);
    expect(check({ ...signed, 'Wechatpay-Timestamp': '1e9' })).toMatch(/not a number/);
    expect(check({ ...signed, 'Wechatpay-Signature-Type': 'WECHATPAY2-SM2-WITH-SM3' })).toMatch(/type/);
    for (const name of ['Wechatpay-Timestamp', 'Wechatpay-Nonce', 'Wechatpay-Signature', 'Wechatpay-Serial']) {
      const { [name]: _dropped, ...rest } = signed;
      expect(check(rest)).toMatch(/missing/);
    }
  });

  it('holds for any body: it verifies as signed and not once a character is added', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const h = signedHeaders(platform, text, { timestamp: ts, nonce: 'n' });
        return check(h, text) === null && check(h, `${text}x`) !== null;
      }),
      { numRuns: 25 },
    );
  });
});

describe('AEAD_AES_256_GCM resources', () => {
  it('decrypts what was encrypted with the APIv3 key, nonce and associated data', () => {
    const r = encryptResource('{"out_trade_no":"T1"}', apiV3Key, 'transaction');
    expect(r).toMatchObject({
      algorithm: 'AEAD_AES_256_GCM',
      associated_data: 'transaction',
      original_type: 'transaction',
    });
    expect(r.nonce).toHaveLength(12);
    expect(decryptResource(r, apiV3Key)).toBe('{"out_trade_no":"T1"}');
  });

  it('throws for another key, associated data or nonce, a flipped byte, or another algorithm', () => {
    const r = encryptResource('{"amount":{"total":100}}', apiV3Key, 'transaction');
    expect(() => decryptResource(r, 'X'.repeat(32))).toThrow();
    expect(() => decryptResource({ ...r, associated_data: 'refund' }, apiV3Key)).toThrow();
    expect(() => decryptResource({ ...r, nonce: 'AAAAAAAAAAAA' }, apiV3Key)).toThrow();
    const bytes = Buffer.from(r.ciphertext, 'base64');
    bytes[3] = (bytes[3] ?? 0) ^ 0x80;
    expect(() => decryptResource({ ...r, ciphertext: bytes.toString('base64') }, apiV3Key)).toThrow();
    expect(() => decryptResource({ ...r, algorithm: 'AEAD_SM4_GCM' }, apiV3Key)).toThrow(/algorithm/);
  });
});
