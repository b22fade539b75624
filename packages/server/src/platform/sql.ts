import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from './db.js';
import { preparedQuery, type PgliteProtocol } from './pglite-prepared.js';

/** A PostgreSQL array literal of texts (every element quoted, `"` and `\\` escaped). */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/**
 * `column = any($1::text[])`: one parameter whatever the list holds (an organization scope can
 * name dozens), so the statement text stays the same and building it stays cheap.
 */
export function anyText(column: AnyPgColumn, values: readonly string[]): SQL {
  return sql`${column} = any(${textArrayLiteral(values)}::text[])`;
}

/**
 * Raw SQL for the few hot paths where drizzle's query building costs more than the query (the
 * ingest writes). Statements are constant texts with array parameters (`unnest($1::text[])`), so
 * each is prepared once whatever the batch size: per connection on PostgreSQL, once per database
 * on PGlite (pglite-prepared.ts).
 */
export interface RawTx {
  query<R>(name: string, text: string, params: unknown[]): Promise<R[]>;
}

interface PgPoolLike {
  connect(): Promise<{
    query(config: { name?: string; text: string; values?: unknown[] }): Promise<{ rows: unknown[] }>;
    release(err?: Error | boolean): void;
  }>;
  totalCount: number;
}

interface PgliteLike extends PgliteProtocol {
  transaction<T>(fn: () => Promise<T>): Promise<T>;
}

function clientOf(db: Db): PgPoolLike | PgliteLike {
  return (db as unknown as { $client: PgPoolLike | PgliteLike }).$client;
}

/** Runs fn in one transaction on one connection; a throw rolls it back. */
export async function rawTransaction<T>(
  db: Db,
  fn: (tx: RawTx) => Promise<T>,
  opts: { asyncCommit?: boolean } = {},
): Promise<T> {
  const client = clientOf(db);
  if ('totalCount' in client) {
    const conn = await client.connect();
    let broken: Error | undefined;
    try {
      await conn.query({ text: opts.asyncCommit ? 'begin; set local synchronous_commit to off' : 'begin' });
      const result = await fn({
        query: async <R>(name: string, text: string, params: unknown[]) =>
          (await conn.query({ name, text, values: params })).rows as R[],
      });
      await conn.query({ text: 'commit' });
      return result;
    } catch (err) {
      try {
        await conn.query({ text: 'rollback' });
      } catch (rollbackErr) {
        broken = rollbackErr as Error; // the connection is unusable: the pool drops it
      }
      throw err;
    } finally {
      conn.release(broken);
    }
  }
  return client.transaction(() =>
    fn({
      query: async <R>(name: string, text: string, params: unknown[]) =>
        (await preparedQuery(client, name, text, params)) as R[],
    }),
  );
}

/** PostgreSQL error code of a driver error (pg and PGlite both carry `code`). */
export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
