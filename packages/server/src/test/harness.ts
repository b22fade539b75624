import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LocalBlobStore } from '../platform/blobs.js';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type RouteInfo, type Services } from '../app.js';
import type { Clock } from '../platform/clock.js';
import type { TrustProxy } from '../platform/config.js';
import { migrate, openDatabase, type Database } from '../platform/db.js';
import { seedDemo } from '../seed/demo.js';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  private t: number;
  constructor(start = Date.parse('2026-11-22T08:00:00Z')) {
    this.t = start;
  }
  now(): Date {
    return new Date(this.t);
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export const TEST_SECRET = new TextEncoder().encode('integration-test-secret-0123456789abcdef');

export interface TestDatabase {
  database: Database;
  kind: 'pglite' | 'postgres';
  drop(): Promise<void>;
}

/**
 * PGlite in memory by default; with DATABASE_URL, a fresh PostgreSQL database per call that is
 * dropped afterwards, so test files never see each other's rows.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const database = await openDatabase({});
    await migrate(database);
    return { database, kind: 'pglite', drop: () => database.close() };
  }
  const { default: pg } = await import('pg');
  const name = `yyp_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
  await migrate(database);
  return {
    database,
    kind: 'postgres',
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  blobs: LocalBlobStore;
  blobDir: string;
  routes: RouteInfo[];
  db: TestDatabase;
  clock: TestClock;
  /** app.inject with the API base prefixed to relative urls and JSON bodies */
  call(
    method: InjectOptions['method'],
    url: string,
    opts?: { body?: unknown; token?: string; headers?: Record<string, string> },
  ): Promise<LightMyRequestResponse>;
  login(username: string, password?: string): Promise<string>;
  /** Shorthand calls as the holder of a token. */
  as(token: string): {
    get(url: string): Promise<LightMyRequestResponse>;
    post(url: string, body?: unknown): Promise<LightMyRequestResponse>;
    put(url: string, body: unknown): Promise<LightMyRequestResponse>;
    del(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  };
  close(): Promise<void>;
}

export const DEMO_PW = 'Yyp@2026';

export async function startTestApp(
  options: {
    db?: TestDatabase;
    clock?: TestClock;
    seed?: boolean;
    bodyLimitBytes?: number;
    stowLimitBytes?: number;
    webDist?: string;
    trustProxy?: TrustProxy;
    publicBaseUrl?: string;
    /** scales the per-address rate limits (default 1, the production limits) */
    rateLimitMultiplier?: number;
  } = {},
): Promise<TestApp> {
  const clock = options.clock ?? new TestClock();
  const db = options.db ?? (await createTestDatabase());
  if (options.seed !== false) await seedDemo(db.database.db, clock.now());
  const blobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-test-blobs-'));
  const blobs = new LocalBlobStore(blobDir);
  const { app, routes, services } = await buildApp({
    db: db.database.db,
    blobs,
    dicomAet: 'YYP',
    uploadDir: path.join(blobDir, 'uploads'),
    clock,
    jwtSecret: TEST_SECRET,
    tokenTtlSeconds: 3600,
    bodyLimitBytes: options.bodyLimitBytes ?? 64 * 1024,
    stowLimitBytes: options.stowLimitBytes,
    webDist: options.webDist,
    trustProxy: options.trustProxy,
    publicBaseUrl: options.publicBaseUrl,
    rateLimitMultiplier: options.rateLimitMultiplier,
    // Tests run due jobs themselves (services.jobs.runDue), on their own clock.
    jobIntervalMs: 0,
  });
  await app.ready();
  const call: TestApp['call'] = (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    return app.inject({
      method,
      url: url.startsWith('/') ? url : `/yyp/api/v1/${url}`,
      headers,
      ...(opts.body !== undefined ? { payload: opts.body as InjectOptions['payload'] } : {}),
    });
  };
  return {
    app,
    services,
    blobs,
    blobDir,
    routes,
    db,
    clock,
    call,
    login: async (username, password = DEMO_PW) => {
      const res = await call('POST', 'accounts/login-in', { body: { username, password } });
      if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
      return (res.json() as { accessToken: string }).accessToken;
    },
    as: (token) => ({
      get: (url) => call('GET', url, { token }),
      post: (url, body = {}) => call('POST', url, { token, body }),
      put: (url, body) => call('PUT', url, { token, body }),
      del: (url, body) => call('DELETE', url, { token, ...(body ? { body } : {}) }),
    }),
    close: async () => {
      await app.close();
      fs.rmSync(blobDir, { recursive: true, force: true });
      if (!options.db) await db.drop();
    },
  };
}
