import path from 'node:path';

/** Environment of DESIGN.md "Configuration"; every variable optional. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  dicomPort: number;
  /** interface of the DICOM port: DICOM_HOST, else HOST, else all */
  dicomHost: string;
  dicomAet: string;
  jwtSecret: string | undefined;
  tokenTtlSeconds: number;
  demo: boolean;
  /** with the demo: generate and store demo studies at first start */
  demoStudies: boolean;
  bodyLimitBytes: number;
  logLevel: string;
  webDist: string | undefined;
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'off', 'false', 'no'].includes(value.toLowerCase());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  return {
    port: int(env.PORT, 8080, 'PORT'),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    dicomPort: int(env.DICOM_PORT, 11112, 'DICOM_PORT'),
    dicomHost: env.DICOM_HOST || env.HOST || '0.0.0.0',
    dicomAet: env.DICOM_AET || 'YYP',
    jwtSecret: env.JWT_SECRET || undefined,
    tokenTtlSeconds: int(env.TOKEN_TTL_SECONDS, 12 * 3600, 'TOKEN_TTL_SECONDS'),
    // The demo tenant is seeded by default on the embedded store only.
    demo: flag(env.YYP_DEMO, databaseUrl === undefined),
    demoStudies: flag(env.YYP_DEMO_STUDIES, true),
    bodyLimitBytes: int(env.BODY_LIMIT_BYTES, 1024 * 1024, 'BODY_LIMIT_BYTES'),
    logLevel: env.LOG_LEVEL || 'info',
    webDist: env.WEB_DIST || undefined,
  };
}
