import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LocalBlobStore } from '../platform/blobs.js';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions, type RouteInfo, type Services } from '../app.js';
import type { Clock } from '../platform/clock.js';
import type { TrustProxy } from '../platform/config.js';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { migrate, migrationsFolder, openDatabase, type Database } from '../platform/db.js';
import { seedDemo } from '../seed/demo.js';

const require = createRequire(import.meta.url);

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
  /** PostgreSQL: its URL (apps on one database share live events through it) */
  url?: string;
  drop(): Promise<void>;
}

/**
 * What a migrated database depends on: the migrations (names and contents) and PGlite's version.
 * A change to either gives a new name, so a stale copy is never used.
 */
function migrationsStamp(): string {
  const hash = crypto.createHash('sha256');
  const files = fs.readdirSync(migrationsFolder, { recursive: true, withFileTypes: true });
  for (const f of files.filter((e) => e.isFile()).sort((a, b) => a.name.localeCompare(b.name))) {
    hash.update(f.name).update(fs.readFileSync(path.join(f.parentPath, f.name)));
  }
  const pglite = require.resolve('@electric-sql/pglite');
  let dir = path.dirname(pglite);
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  hash.update(fs.readFileSync(path.join(dir, 'package.json')));
  return hash.digest('hex').slice(0, 16);
}

/**
 * How the migrated data directory is made (below); part of its file's name, so that a change to the
 * recipe never starts a test from a copy made the old way.
 */
const PGLITE_RECIPE = 'v2';

/** Node's WebAssembly.compile (the server's typings, ES2023 and node, declare no WebAssembly value). */
const wasmCompile = (bytes: Uint8Array) =>
  (
    globalThis as unknown as {
      WebAssembly: { compile(bytes: Uint8Array): Promise<NonNullable<PGliteOptions['pgliteWasmModule']>> };
    }
  ).WebAssembly.compile(bytes);

/**
 * The PGlite options of every test database, made once per worker (vitest's int project shares the
 * modules of a worker between its files): the compiled WebAssembly module and the file bundle, which
 * PGlite would otherwise read and compile for each database, and 16 MB of shared buffers instead of
 * 128 MB, which the server starts with in production (a test database holds a few megabytes; the
 * buffers are set up at each start). Left to PGlite if its files ever move.
 */
let pgliteOptionsOnce: Promise<PGliteOptions> | undefined;
function pgliteOptions(): Promise<PGliteOptions> {
  pgliteOptionsOnce ??= (async () => {
    const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];
    const dist = path.dirname(require.resolve('@electric-sql/pglite'));
    const wasm = path.join(dist, 'pglite.wasm');
    const data = path.join(dist, 'pglite.data');
    if (!fs.existsSync(wasm) || !fs.existsSync(data)) return { startParams };
    const [pgliteWasmModule, bundle] = await Promise.all([
      fs.promises.readFile(wasm).then(wasmCompile),
      fs.promises.readFile(data),
    ]);
    return { startParams, pgliteWasmModule, fsBundle: new Blob([bundle]) };
  })();
  return pgliteOptionsOnce;
}

/**
 * Makes the migrated data directory, as a tarball: migrated on disk, then cleanly shut down and opened
 * once more to dump it, so that a test database starts without replaying the migrations' WAL. Its WAL
 * segments are 1 MB (rather than 16) and none are kept for reuse, and the template0 and template1
 * databases (a third of the files) are dropped: tests never create a database on PGlite. About
 * 16 MB rather than 46, it loads in ~60% of the time the plain dump took (2026-11-29).
 */
async function buildPgliteDump(): Promise<Buffer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-pglite-build-'));
  try {
    const startParams = [...PGlite.defaultStartParams, '-c', 'wal_recycle=off', '-c', 'min_wal_size=2MB'];
    const building = await openDatabase({
      pgliteDir: dir,
      pglite: { initDbStartParams: ['--wal-segsize=1'], startParams },
    });
    await migrate(building);
    await building.db.execute(
      sql`update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
    );
    await building.db.execute(sql`drop database template0`);
    await building.db.execute(sql`drop database template1`);
    await building.db.execute(sql`checkpoint`);
    await building.close();
    const reopened = await openDatabase({ pgliteDir: dir });
    const dump = await reopened.dumpDataDir!();
    await reopened.close();
    return Buffer.from(await dump.arrayBuffer());
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The migrated PGlite data directory, made once per machine and migration set and kept in the temp
 * folder (written to a temporary name and renamed, so parallel test files never read half a file),
 * and held in memory by each worker. Starting from it skips PGlite's initdb and the migrations.
 */
let pgliteDumpOnce: { stamp: string; dump: Promise<Blob> } | undefined;
function migratedPgliteDump(stamp: string): Promise<Blob> {
  if (pgliteDumpOnce?.stamp !== stamp) pgliteDumpOnce = { stamp, dump: readOrBuildPgliteDump(stamp) };
  return pgliteDumpOnce.dump;
}

async function readOrBuildPgliteDump(stamp: string): Promise<Blob> {
  const file = path.join(os.tmpdir(), `yyp-pglite-migrated-${PGLITE_RECIPE}-${stamp}.tar`);
  if (!fs.existsSync(file)) {
    const partial = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
    fs.writeFileSync(partial, await buildPgliteDump());
    fs.renameSync(partial, file);
    for (const old of fs.readdirSync(os.tmpdir())) {
      if (old.startsWith('yyp-pglite-migrated-') && old.endsWith('.tar') && !file.endsWith(old)) {
        fs.rmSync(path.join(os.tmpdir(), old), { force: true });
      }
    }
  }
  return new Blob([fs.readFileSync(file)]);
}

const TEMPLATE_LOCK = 727_002;

/**
 * The PostgreSQL template database holding the migrated schema, made once per migration set (under
 * an advisory lock, so the two int tiers and parallel files build it once); older templates go.
 */
async function migratedTemplate(base: string, stamp: string): Promise<string> {
  const { default: pg } = await import('pg');
  const template = `yyp_template_${stamp}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const found = await admin.query('select 1 from pg_database where datname = $1', [template]);
    if (found.rowCount === 0) {
      const stale = await admin.query<{ datname: string }>(
        "select datname from pg_database where datname like 'yyp\\_template\\_%'",
      );
      for (const { datname } of stale.rows) await admin.query(`drop database if exists ${datname} with (force)`);
      const building = `${template}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const url = new URL(base);
      url.pathname = `/${building}`;
      const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
      await migrate(database);
      await database.close();
      await admin.query(`alter database ${building} rename to ${template}`);
    }
    return template;
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => undefined);
    await admin.end();
  }
}

let stampOnce: string | undefined;

/**
 * PGlite in memory by default; with DATABASE_URL, a fresh PostgreSQL database per call that is
 * dropped afterwards, so test files never see each other's rows. Both start from a migrated copy
 * (a PGlite data directory, a PostgreSQL template) rather than migrating each time.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  stampOnce ??= migrationsStamp();
  if (!base) {
    const [pgliteDump, pglite] = await Promise.all([migratedPgliteDump(stampOnce), pgliteOptions()]);
    const database = await openDatabase({ pgliteDump, pglite });
    return { database, kind: 'pglite', drop: () => database.close() };
  }
  const template = await migratedTemplate(base, stampOnce);
  const { default: pg } = await import('pg');
  const name = `yyp_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  // A commit need not wait for its WAL to reach the disk (only a crash of the server could lose it, and
  // it stays visible to every session at once): ~5 ms less per commit on this disk (2026-11-29).
  await admin.query(`alter database ${name} set synchronous_commit = off`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
  return {
    database,
    kind: 'postgres',
    url: url.toString(),
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
    /** any other option of buildApp (e.g. liveTimings, espeakPath) */
    app?: Partial<AppOptions>;
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
    // Statistics recount their marks when read; the oracle tests take the background's step by hand.
    statRefreshIntervalMs: 0,
    databaseUrl: db.url,
    ...options.app,
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
      // Asynchronously, so the removal queues behind tus's own mkdir of uploads/ (its FileStore
      // constructor's, still pending in libuv's pool when a test file finishes within moments).
      await fs.promises.rm(blobDir, { recursive: true, force: true });
      if (!options.db) await db.drop();
    },
  };
}
