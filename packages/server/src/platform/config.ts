import os from 'node:os';
import path from 'node:path';
import { DEFAULT_REPORT_LOCK_SECONDS } from '@yyp/contracts';
import type { S3Settings } from './blobs-s3.js';

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
  logLevel: string;
  webDist: string | undefined;
  /** the blob store on S3 when S3_BUCKET is set; otherwise files in DATA_DIR/blobs */
  s3: S3Settings | undefined;
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
  return {
    port: int(env.PORT, 8080, 'PORT'),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    databasePoolSize: poolSize(env.DATABASE_POOL_SIZE),
    dicomPort: int(env.DICOM_PORT, 11112, 'DICOM_PORT'),
    dicomHost: env.DICOM_HOST || env.HOST || '0.0.0.0',
    dicomAet: env.DICOM_AET || 'YYP',
    jwtSecret: env.JWT_SECRET || undefined,
    tokenTtlSeconds: int(env.TOKEN_TTL_SECONDS, 12 * 3600, 'TOKEN_TTL_SECONDS'),
    reportLockSeconds:
      int(env.REPORT_LOCK_SECONDS, DEFAULT_REPORT_LOCK_SECONDS, 'REPORT_LOCK_SECONDS') || DEFAULT_REPORT_LOCK_SECONDS,
    // The demo tenant is seeded by default on the embedded store only.
    demo: flag(env.YYP_DEMO, databaseUrl === undefined),
    demoStudies: flag(env.YYP_DEMO_STUDIES, true),
    ingestSyncCommit: flag(env.INGEST_SYNC_COMMIT, false),
    bodyLimitBytes: int(env.BODY_LIMIT_BYTES, 1024 * 1024, 'BODY_LIMIT_BYTES'),
    logLevel: env.LOG_LEVEL || 'info',
    webDist: env.WEB_DIST || undefined,
    s3: s3Settings(env),
  };
}
