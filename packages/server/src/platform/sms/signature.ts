import { createHmac, randomUUID } from 'node:crypto';

/**
 * Alibaba Cloud's RPC-style request signature (SignatureMethod HMAC-SHA1, SignatureVersion 1.0),
 * as the SMS API (Dysmsapi) documents it: the parameters but Signature, sorted by name,
 * percent-encoded (RFC 3986: every byte but A–Z a–z 0–9 - _ . ~), joined into a canonical query;
 * StringToSign = method & percentEncode("/") & percentEncode(query); the signature is the base64
 * HMAC-SHA1 of it with the key AccessKeySecret + "&" (https://help.aliyun.com/document_detail/101343.html).
 * The simulator (sim/sms) checks requests with the same functions.
 */

/**
 * Their percentEncode: Java's URLEncoder then + → %20, * → %2A, %7E → ~. encodeURIComponent
 * already writes a space as %20 and keeps ~, so only the five it leaves alone (!'()*) need encoding.
 */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The canonical query of the parameters (Signature excluded), sorted by name in byte order. */
export function canonicalQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((k) => k !== 'Signature')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k]!)}`)
    .join('&');
}

export function stringToSign(method: 'GET' | 'POST', params: Record<string, string>): string {
  return `${method}&${percentEncode('/')}&${percentEncode(canonicalQuery(params))}`;
}

/** The Signature parameter's value (base64) for these parameters. */
export function signRpc(params: Record<string, string>, accessKeySecret: string, method: 'GET' | 'POST'): string {
  return createHmac('sha1', `${accessKeySecret}&`).update(stringToSign(method, params), 'utf8').digest('base64');
}

/** 2017-07-12T02:42:19Z: ISO 8601 in UTC without milliseconds, as the API wants its Timestamp. */
export function rpcTimestamp(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export interface SendSmsInput {
  accessKeyId: string;
  accessKeySecret: string;
  region: string;
  phoneNumbers: string;
  signName: string;
  templateCode: string;
  templateParam: Record<string, string>;
  now: Date;
  /** a fresh random one unless given (tests) */
  nonce?: string;
}

/** Every parameter of one SendSms request (API version 2017-05-25), Signature included. */
export function signedSendSmsParams(input: SendSmsInput, method: 'GET' | 'POST' = 'POST'): Record<string, string> {
  const params: Record<string, string> = {
    AccessKeyId: input.accessKeyId,
    Action: 'SendSms',
    Format: 'JSON',
    PhoneNumbers: input.phoneNumbers,
    RegionId: input.region,
    SignName: input.signName,
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: input.nonce ?? randomUUID(),
    SignatureVersion: '1.0',
    TemplateCode: input.templateCode,
    TemplateParam: JSON.stringify(input.templateParam),
    Timestamp: rpcTimestamp(input.now),
    Version: '2017-05-25',
  };
  return { ...params, Signature: signRpc(params, input.accessKeySecret, method) };
}
