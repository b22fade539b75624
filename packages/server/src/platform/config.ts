import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_REPORT_LOCK_SECONDS } from '@yyp/contracts';
import type { S3Settings } from './blobs-s3.js';
import { smsSettings, type SmsSettings } from './sms/settings.js';
import { wechatPaySettings, type WechatPaySettings } from './wechatpay/settings.js';
import { wxLoginSettings, type WxLoginSettings } from './wxlogin/settings.js';

/** Environment of DESIGN.md "Configuration"; every variable optional. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** connections to PostgreSQL at most (DATABASE_POOL_SIZE) */
  databasePoolSize: number;
  dicomPort: number;
  /** interface of the DICOM port: DICOM_HOST, else HOST, else all */
  dicomHost: string;
  dicomAet: string;
  /** DIMSE C-FIND compares person names without case (DICOM_PN_CASE_INSENSITIVE, default off) */
  dicomPnCaseInsensitive: boolean;
  /** forwarding waits this long after a study's last instance (DICOM_FORWARD_STABLE_SECONDS, 60) */
  forwardStableSeconds: number;
  jwtSecret: string | undefined;
  tokenTtlSeconds: number;
  /** a report's edit lock lapses after this many seconds unless its editor renews it (REPORT_LOCK_SECONDS) */
  reportLockSeconds: number;
  demo: boolean;
  /** with the demo: generate and store demo studies at first start */
  demoStudies: boolean;
  /** ingest commits wait for the database's WAL flush (INGEST_SYNC_COMMIT, default off) */
  ingestSyncCommit: boolean;
  bodyLimitBytes: number;
  /** scales the per-address rate limits of login, registration and password reset (RATE_LIMIT_MULTIPLIER; 0: off) */
  rateLimitMultiplier: number;
  logLevel: string;
  webDist: string | undefined;
  /** the blob store on S3 when S3_BUCKET is set; otherwise files in DATA_DIR/blobs */
  s3: S3Settings | undefined;
  /** a second DICOM port over TLS when DICOM_TLS_PORT is set (key, certificate, client CAs as PEM files) */
  dicomTls: DicomTlsSettings | undefined;
  /** the origin browsers reach yyp at, e.g. https://pacs.example.org (PUBLIC_BASE_URL): absolute links (tus Location) */
  publicBaseUrl: string | undefined;
  /** which peers' X-Forwarded-* headers are believed (TRUST_PROXY): none by default; Fastify's trustProxy */
  trustProxy: TrustProxy;
  /** origins that may show /web and /web-report in a frame (FRAME_ANCESTORS); none by default */
  frameAncestors: string[];
  /** origins whose pages may call /dicom-web (a viewer such as OHIF served elsewhere): DICOMWEB_CORS_ORIGINS */
  dicomWebCorsOrigins: string[];
  /** viewers (OHIF) that may sign in through yyp as an OpenID Connect provider (OIDC_PROVIDER_CLIENTS); none by default */
  oidcProviderClients: OidcProviderClient[];
  /** the espeak-ng program text-to-speech runs (ESPEAK_NG); undefined: espeak-ng on the PATH */
  espeakPath: string | undefined;
  /** WeChat Pay (YYP_WECHATPAY off|sim|live, default sim, and WECHATPAY_*; docs/payments.md) */
  wechatPay: WechatPaySettings;
  /** SMS codes (YYP_SMS off|dev|sim|aliyun, default sim, off in production, and ALIYUN_SMS_*; docs/sms.md) */
  sms: SmsSettings;
  /** WeChat website login (YYP_WX_LOGIN off|sim|live, default sim, off in production, and WX_LOGIN_*; docs/wechat-login.md) */
  wxLogin: WxLoginSettings;
  /** the video rooms' STUN/TURN servers (YYP_TURN_URLS) and coturn's auth secret (YYP_TURN_SECRET); docs/video.md */
  turn: { urls: string[]; secret: string | undefined };
}

/** YYP_TURN_URLS: stun:, turn: and turns: URLs separated by commas or spaces; anything else is refused. */
export function iceUrls(value: string | undefined): string[] {
  const list = (value ?? '').split(/[\s,]+/).filter(Boolean);
  const bad = list.find((u) => !/^(stun|turns?):[A-Za-z0-9.\-[\]:]+(\?transport=(udp|tcp))?$/i.test(u));
  if (bad !== undefined) {
    throw new Error(
      `YYP_TURN_URLS must list stun:, turn: or turns: URLs such as turn:turn.example.org:3478, got "${bad}"`,
    );
  }
  return list;
}

/**
 * FRAME_ANCESTORS: the hospital systems' origins (scheme://host[:port], a leading *. for any
 * subdomain), separated by spaces or commas. Nothing else is accepted: no path, keyword or quote
 * reaches the Content-Security-Policy.
 */
function frameAncestors(value: string | undefined): string[] {
  return originList(value, 'FRAME_ANCESTORS', true);
}

/**
 * Origins (scheme://host[:port]) separated by spaces or commas, lower case, without a trailing
 * slash; `subdomains` allows a leading *. Anything else stops the server with a clear message.
 */
function originList(value: string | undefined, name: string, subdomains: boolean): string[] {
  const list = (value ?? '').split(/[\s,]+/).filter(Boolean);
  const origin = subdomains
    ? /^https?:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?\/?$/i
    : /^https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?\/?$/i;
  const bad = list.find((entry) => !origin.test(entry));
  if (bad !== undefined) {
    throw new Error(`${name} must list http(s) origins such as https://his.example.org, got "${bad}"`);
  }
  return [...new Set(list.map((entry) => entry.replace(/\/$/, '').toLowerCase()))];
}

/** A public client (a viewer in the browser: no secret, code + PKCE) of yyp's OpenID Connect provider. */
export interface OidcProviderClient {
  clientId: string;
  /** shown on the sign-in page; the client id when not given */
  clientName: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
}

/**
 * OIDC_PROVIDER_CLIENTS: a JSON array of `{ client_id, redirect_uris, post_logout_redirect_uris?,
 * client_name? }`; the issuer is PUBLIC_BASE_URL + /yyp/oidc, so that must be set too. A redirect
 * URI is an absolute http(s) URL without a fragment, compared exactly (RFC 9700 §2.1).
 */
export function oidcProviderClients(value: string | undefined, publicBase: string | undefined): OidcProviderClient[] {
  if (!value?.trim()) return [];
  const fail = (why: string): never => {
    throw new Error(`OIDC_PROVIDER_CLIENTS ${why}`);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    fail('must be a JSON array of clients');
  }
  if (!Array.isArray(parsed) || parsed.length === 0) fail('must be a JSON array of clients');
  if (!publicBase) fail('needs PUBLIC_BASE_URL (the issuer is PUBLIC_BASE_URL/yyp/oidc)');
  const uris = (list: unknown, name: string, required: boolean): string[] => {
    if (list === undefined && !required) return [];
    if (!Array.isArray(list) || (required && list.length === 0)) fail(`: ${name} must be a non-empty array of URLs`);
    return (list as unknown[]).map((entry) => {
      let u: URL | undefined;
      try {
        u = typeof entry === 'string' ? new URL(entry) : undefined;
      } catch {
        u = undefined;
      }
      if (!u || !['http:', 'https:'].includes(u.protocol) || u.hash || u.username || u.password) {
        fail(`: ${name} must hold absolute http(s) URLs without a fragment, got ${JSON.stringify(entry)}`);
      }
      return entry as string;
    });
  };
  const seen = new Set<string>();
  return (parsed as unknown[]).map((raw) => {
    const c = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const id = c.client_id;
    if (typeof id !== 'string' || !/^[A-Za-z0-9._-]{1,100}$/.test(id)) {
      fail(`: client_id must be 1-100 letters, digits, dots, dashes or underscores, got ${JSON.stringify(id)}`);
    }
    if (seen.has(id as string)) fail(`: client_id ${id as string} is listed twice`);
    seen.add(id as string);
    const name = c.client_name;
    if (name !== undefined && (typeof name !== 'string' || name.length > 100)) {
      fail(': client_name must be a short string');
    }
    return {
      clientId: id as string,
      clientName: (name as string | undefined) || (id as string),
      redirectUris: uris(c.redirect_uris, 'redirect_uris', true),
      postLogoutRedirectUris: uris(c.post_logout_redirect_uris, 'post_logout_redirect_uris', false),
    };
  });
}

/** true (every peer) or the addresses/CIDRs (and proxy-addr's names) of the proxies; false: none. */
export type TrustProxy = boolean | string[];

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function proxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const version = net.isIP(address);
  if (!version || rest.length > 0) return false;
  if (range === undefined) return true;
  if (version === 4 && net.isIPv4(range)) return true; // a netmask
  return /^\d{1,3}$/.test(range) && Number(range) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset, empty or a false word (0, off, false, no) trusts no proxy (the client's own
 * address, Host and scheme are used); true/on/yes trusts every peer (only behind a proxy that
 * overwrites the headers); otherwise a comma-separated list of addresses or CIDRs (or loopback,
 * linklocal, uniquelocal). A hop count is refused: Fastify 5 cannot check the peer with one and
 * trusts nobody for it, which would silently do nothing.
 */
function trustProxy(value: string | undefined): TrustProxy {
  const v = value?.trim().toLowerCase() ?? '';
  if (v === '' || ['0', 'off', 'false', 'no'].includes(v)) return false;
  if (['true', 'on', 'yes'].includes(v)) return true;
  if (/^\d+$/.test(v)) {
    throw new Error('TRUST_PROXY hop counts are not supported (Fastify cannot check the peer): list the proxies');
  }
  const list = v
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = list.find((e) => !proxyAddress(e));
  if (bad !== undefined || list.length === 0) {
    throw new Error(`TRUST_PROXY must be true or a comma-separated list of addresses/CIDRs, got "${value}"`);
  }
  return list;
}

/** PUBLIC_BASE_URL: an http(s) origin, optionally with a path prefix; no query, fragment or credentials. */
function publicBaseUrl(value: string | undefined): string | undefined {
  const base = url(value, 'PUBLIC_BASE_URL');
  if (base === undefined) return undefined;
  const parsed = new URL(base);
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new Error('PUBLIC_BASE_URL must be a plain http(s) URL (no credentials, query or fragment)');
  }
  return base;
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/**
 * PostgreSQL connections at most: by default twice this machine's cores, at least 4 (more
 * connections than the cores can run only make them take turns, each request then waiting longer;
 * measured on 2 cores, bench/studies served a fifth more requests with 4 than with 10). A server
 * of its own with more cores than this one wants DATABASE_POOL_SIZE.
 */
function poolSize(value: string | undefined): number {
  const n = int(value, Math.max(4, 2 * os.availableParallelism()), 'DATABASE_POOL_SIZE');
  if (n < 2 || n > 200) throw new Error(`DATABASE_POOL_SIZE must be between 2 and 200, got "${value}"`);
  return n;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'off', 'false', 'no'].includes(value.toLowerCase());
}

export interface DicomTlsSettings {
  port: number;
  certFile: string;
  keyFile: string;
  /** CAs of client certificates (DICOM_TLS_CA) */
  caFile: string | undefined;
  /** clients must present a certificate of those CAs whose CN is their AE title (DICOM_TLS_REQUIRE_CLIENT_CERT) */
  requireClientCert: boolean;
}

/** DICOM_TLS_*: the TLS port needs its certificate and key; client certificates need the CAs. */
function dicomTlsSettings(env: NodeJS.ProcessEnv): DicomTlsSettings | undefined {
  if (!env.DICOM_TLS_PORT) return undefined;
  const port = int(env.DICOM_TLS_PORT, 2762, 'DICOM_TLS_PORT');
  if (!env.DICOM_TLS_CERT || !env.DICOM_TLS_KEY) {
    throw new Error('DICOM_TLS_PORT needs DICOM_TLS_CERT and DICOM_TLS_KEY (PEM files)');
  }
  const requireClientCert = flag(env.DICOM_TLS_REQUIRE_CLIENT_CERT, false);
  if (requireClientCert && !env.DICOM_TLS_CA) throw new Error('DICOM_TLS_REQUIRE_CLIENT_CERT needs DICOM_TLS_CA');
  return {
    port,
    certFile: path.resolve(env.DICOM_TLS_CERT),
    keyFile: path.resolve(env.DICOM_TLS_KEY),
    caFile: env.DICOM_TLS_CA ? path.resolve(env.DICOM_TLS_CA) : undefined,
    requireClientCert,
  };
}

/** S3_* settings; the secret is only ever passed to the SDK, never echoed in an error. */
function s3Settings(env: NodeJS.ProcessEnv): S3Settings | undefined {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) return undefined;
  const endpoint = url(env.S3_ENDPOINT, 'S3_ENDPOINT');
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all');
  }
  return {
    bucket,
    region: env.S3_REGION || 'us-east-1',
    endpoint,
    publicEndpoint: url(env.S3_PUBLIC_ENDPOINT, 'S3_PUBLIC_ENDPOINT'),
    accessKeyId,
    secretAccessKey,
    // Own endpoints (MinIO, Ceph, …) usually want the bucket in the path; AWS wants it in the host.
    forcePathStyle: flag(env.S3_FORCE_PATH_STYLE, endpoint !== undefined),
  };
}

function url(value: string | undefined, name: string): string | undefined {
  if (!value) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(`${name} must be an http(s) URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL`);
  return value.replace(/\/+$/, '');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  const publicBase = publicBaseUrl(env.PUBLIC_BASE_URL);
  return {
    port: int(env.PORT, 8080, 'PORT'),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    databasePoolSize: poolSize(env.DATABASE_POOL_SIZE),
    dicomPort: int(env.DICOM_PORT, 11112, 'DICOM_PORT'),
    dicomHost: env.DICOM_HOST || env.HOST || '0.0.0.0',
    dicomAet: env.DICOM_AET || 'YYP',
    dicomPnCaseInsensitive: flag(env.DICOM_PN_CASE_INSENSITIVE, false),
    forwardStableSeconds: int(env.DICOM_FORWARD_STABLE_SECONDS, 60, 'DICOM_FORWARD_STABLE_SECONDS'),
    jwtSecret: env.JWT_SECRET || undefined,
    tokenTtlSeconds: int(env.TOKEN_TTL_SECONDS, 12 * 3600, 'TOKEN_TTL_SECONDS'),
    reportLockSeconds:
      int(env.REPORT_LOCK_SECONDS, DEFAULT_REPORT_LOCK_SECONDS, 'REPORT_LOCK_SECONDS') || DEFAULT_REPORT_LOCK_SECONDS,
    // The demo tenant is seeded by default on the embedded store only.
    demo: flag(env.YYP_DEMO, databaseUrl === undefined),
    demoStudies: flag(env.YYP_DEMO_STUDIES, true),
    ingestSyncCommit: flag(env.INGEST_SYNC_COMMIT, false),
    bodyLimitBytes: int(env.BODY_LIMIT_BYTES, 1024 * 1024, 'BODY_LIMIT_BYTES'),
    rateLimitMultiplier: int(env.RATE_LIMIT_MULTIPLIER, 1, 'RATE_LIMIT_MULTIPLIER'),
    logLevel: env.LOG_LEVEL || 'info',
    webDist: env.WEB_DIST || undefined,
    s3: s3Settings(env),
    dicomTls: dicomTlsSettings(env),
    publicBaseUrl: publicBase,
    trustProxy: trustProxy(env.TRUST_PROXY),
    frameAncestors: frameAncestors(env.FRAME_ANCESTORS),
    dicomWebCorsOrigins: originList(env.DICOMWEB_CORS_ORIGINS, 'DICOMWEB_CORS_ORIGINS', false),
    oidcProviderClients: oidcProviderClients(env.OIDC_PROVIDER_CLIENTS, publicBase),
    espeakPath: env.ESPEAK_NG || undefined,
    wechatPay: wechatPaySettings(env),
    sms: smsSettings(env),
    wxLogin: wxLoginSettings(env),
    turn: { urls: iceUrls(env.YYP_TURN_URLS), secret: env.YYP_TURN_SECRET || undefined },
  };
}
