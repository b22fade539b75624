import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore } from './platform/blobs.js';
import type { Clock } from './platform/clock.js';
import type { OidcProviderClient, TrustProxy } from './platform/config.js';
import type { OidcSigningKey } from './modules/oidc-provider/index.js';
import type { Db } from './platform/db.js';
import type { SmsProvider } from './platform/sms/index.js';
import type { WxLoginProvider } from './platform/wxlogin/index.js';
import type { SmsStatus } from '@yyp/contracts';
import type { WechatChannel } from './modules/payments/index.js';

/** What buildApp (app.ts) is given: the stores, the clock, secrets and limits (main.ts reads them from the config). */
export interface AppOptions {
  db: Db;
  blobs: BlobStore;
  /** our DICOM AE title (called AE of associations) */
  dicomAet: string;
  /** DIMSE C-FIND compares person names and wildcards without case (DICOM_PN_CASE_INSENSITIVE; default off) */
  dicomPnCaseInsensitive?: boolean;
  /** a new study is forwarded once nothing of it arrived for this long (DICOM_FORWARD_STABLE_SECONDS, 60) */
  forwardStableSeconds?: number;
  /** ingest commits wait for the database's WAL flush (INGEST_SYNC_COMMIT) */
  ingestSyncCommit?: boolean;
  /** where tus keeps partial uploads */
  uploadDir: string;
  /** largest STOW-RS request body */
  stowLimitBytes?: number;
  clock: Clock;
  jwtSecret: Uint8Array;
  tokenTtlSeconds: number;
  /** report edit lock lifetime (default DEFAULT_REPORT_LOCK_SECONDS) */
  reportLockSeconds?: number;
  bodyLimitBytes: number;
  /** whose X-Forwarded-* headers are believed (TRUST_PROXY); default none */
  trustProxy?: TrustProxy | undefined;
  /** the origin browsers reach yyp at (PUBLIC_BASE_URL): the tus Location header is built from it */
  publicBaseUrl?: string | undefined;
  /** Built web app to serve for non-API paths; skipped when the folder has no index.html. */
  webDist?: string | undefined;
  /** origins that may frame /web and /web-report (FRAME_ANCESTORS); default none */
  frameAncestors?: readonly string[] | undefined;
  /** origins whose pages may call /dicom-web across origins (CORS); none by default */
  dicomWebCorsOrigins?: readonly string[] | undefined;
  logger?: FastifyBaseLogger;
  /** how often exams deleted more than 30 days ago are purged (default hourly; 0: never, tests) */
  purgeIntervalMs?: number;
  /** how often the statistics' marked days are recounted in the background (default 10 s; 0: never, tests) */
  statRefreshIntervalMs?: number;
  /** how often the job worker looks for due jobs (default 1 s; 0: never, tests run them by hand) */
  jobIntervalMs?: number;
  /** scales the per-address rate limits of login, registration and password reset (default 1; 0: off) */
  rateLimitMultiplier?: number;
  /**
   * PostgreSQL URL (DATABASE_URL): live events LISTEN on a connection of their own, so an event
   * published on one instance reaches sockets on every instance; undefined (PGlite): in-process.
   */
  databaseUrl?: string | undefined;
  /** the live socket's timings (tests shorten them; defaults in contracts/live.ts) */
  liveTimings?: { heartbeatMs?: number; authTimeoutMs?: number; maxBufferedBytes?: number };
  /**
   * yyp as an OpenID Connect provider for viewers such as OHIF (OIDC_PROVIDER_CLIENTS; the signing
   * key from DATA_DIR): its public clients and key; needs publicBaseUrl (the issuer). Absent: off.
   */
  oidcProvider?: { clients: readonly OidcProviderClient[]; key: OidcSigningKey } | undefined;
  /** the espeak-ng program text-to-speech runs (ESPEAK_NG; default espeak-ng on the PATH) */
  espeakPath?: string | undefined;
  /**
   * WeChat Pay (platform/wechatpay startWechatPay: the live adapter or the loopback simulator) and
   * the API base its notifications are sent to; closed with the app. Absent or null: payment by
   * WeChat is off (the balance channel still works).
   */
  wechatPay?: { channel: WechatChannel; close?: () => Promise<void> } | null;
  /**
   * The SMS service of the verification codes (platform/sms startSms: the Alibaba Cloud adapter,
   * the loopback simulator or the development log); absent or null: no codes are sent (YYP_SMS=off).
   */
  sms?: SmsProvider | null;
  /** what the SMS service in effect is, for the platform admin (startSms status); absent: told from `sms` alone */
  smsStatus?: SmsStatus | undefined;
  /**
   * WeChat website login (platform/wxlogin startWxLogin: the adapter for WeChat or for its loopback
   * simulator); absent or null: GET accounts/auth?type=wx answers ServiceNotConfigured (YYP_WX_LOGIN=off).
   */
  wxLogin?: WxLoginProvider | null;
  /** the video rooms' STUN/TURN URLs and coturn's REST-API secret (YYP_TURN_URLS, YYP_TURN_SECRET; docs/video.md) */
  turn?: { urls: string[]; secret?: string | undefined } | undefined;
}
