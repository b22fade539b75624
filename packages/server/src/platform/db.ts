import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGliteOptions } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from '../db/schema.js';

export type Schema = typeof schema;
/** The one database type every store uses, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs fn while holding a cross-instance lock (PostgreSQL advisory lock on one connection). */
  withExclusiveLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** PGlite only: its data directory as a tarball (tests keep a migrated copy to start from). */
  dumpDataDir?(): Promise<Blob>;
}

/** drizzle-kit output: packages/server/drizzle, beside src/ and dist/. */
export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export const MIGRATION_LOCK = 727_001;

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** Folder for the embedded PGlite store; undefined keeps it in memory (tests). */
  pgliteDir?: string | undefined;
  /** An in-memory PGlite starts from this data directory (a dumpDataDir tarball) instead of initdb. */
  pgliteDump?: Blob | undefined;
  /** Tests only: more options for PGlite (its compiled module, start parameters); none in production. */
  pglite?: PGliteOptions | undefined;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    // JIT compilation costs 0.3–1.8 s on the statistics' plans and pays back only on queries far
    // longer than any this server makes (bench/statistics, 1M exams): off for its sessions.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      options: '-c jit=off',
    });
    pool.on('error', () => {
      /* an idle client dropped by the server; the pool replaces it */
    });
    const db = drizzle(pool, { schema }) as unknown as Db;
    const withExclusiveLock = async <T>(key: number, fn: () => Promise<T>): Promise<T> => {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [key]);
        try {
          return await fn();
        } finally {
          await client.query('select pg_advisory_unlock($1)', [key]);
        }
      } finally {
        client.release();
      }
    };
    return { db, kind: 'postgres', withExclusiveLock, close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  if (options.pgliteDir) fs.mkdirSync(options.pgliteDir, { recursive: true });
  const client = options.pgliteDir
    ? new PGlite(options.pgliteDir, options.pglite)
    : new PGlite({ ...options.pglite, ...(options.pgliteDump ? { loadDataDir: options.pgliteDump } : {}) });
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  // PGlite is one process's embedded store: there is no other instance to exclude.
  return {
    db,
    kind: 'pglite',
    withExclusiveLock: (_key, fn) => fn(),
    close: () => client.close(),
    dumpDataDir: async () => (await client.dumpDataDir('none')) as Blob,
  };
}

/** Applies the generated migrations, forward only. On PostgreSQL an advisory lock serialises instances. */
export async function migrate(database: Database): Promise<void> {
  if (database.kind === 'postgres') {
    const { migrate: run } = await import('drizzle-orm/node-postgres/migrator');
    await database.withExclusiveLock(MIGRATION_LOCK, () => run(database.db as never, { migrationsFolder }));
    return;
  }
  const { migrate: run } = await import('drizzle-orm/pglite/migrator');
  await run(database.db as never, { migrationsFolder });
}
