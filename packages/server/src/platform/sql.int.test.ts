import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/harness.js';
import { rawTransaction, sqlState } from './sql.js';

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  await t.database.db.execute(sql`create table raw_tx_probe (id text primary key, n int, tags text[], at timestamptz)`);
});
afterAll(() => t.drop());

const INSERT = `insert into raw_tx_probe (id, n, tags, at)
  select * from unnest($1::text[], $2::int[]) as u(id, n), lateral (select $3::text[], $4::timestamptz) as c
  returning id, n, tags, at, (n > 1) as big`;
const COUNT = `select count(*)::int as rows, max(n) as top from raw_tx_probe where id = any($1::text[])`;

describe('rawTransaction (the ingest hot path, PGlite and PostgreSQL alike)', () => {
  it('binds array, text and timestamp parameters and answers typed rows, the same statement again and again', async () => {
    const at = new Date('2026-11-25T08:30:00.000Z');
    const first = await rawTransaction(t.database.db, (tx) =>
      tx.query<Record<string, unknown>>('raw_tx_insert', INSERT, [['a', 'b'], [1, 2], ['x', '张伟', 'q"uote'], at]),
    );
    expect(first).toEqual([
      { id: 'a', n: 1, tags: ['x', '张伟', 'q"uote'], at, big: false },
      { id: 'b', n: 2, tags: ['x', '张伟', 'q"uote'], at, big: true },
    ]);
    // Prepared once, run again with other values (and a null).
    const second = await rawTransaction(t.database.db, (tx) =>
      tx.query<Record<string, unknown>>('raw_tx_insert', INSERT, [['c'], [3], null, at]),
    );
    expect(second).toEqual([{ id: 'c', n: 3, tags: null, at, big: true }]);
    const [count] = await rawTransaction(t.database.db, (tx) =>
      tx.query<{ rows: number; top: number }>('raw_tx_count', COUNT, [['a', 'b', 'c', 'zz']]),
    );
    expect(count).toEqual({ rows: 3, top: 3 });
  });

  it('rolls back everything on a failing statement, reports its SQLSTATE, and the statements still work after', async () => {
    const at = new Date();
    const err = await rawTransaction(t.database.db, async (tx) => {
      await tx.query('raw_tx_insert', INSERT, [['d'], [4], [], at]);
      await tx.query('raw_tx_insert', INSERT, [['a'], [9], [], at]); // primary key taken
    }).catch((e: unknown) => e);
    expect(sqlState(err)).toBe('23505');
    const [after] = await rawTransaction(t.database.db, (tx) =>
      tx.query<{ rows: number; top: number }>('raw_tx_count', COUNT, [['a', 'd']]),
    );
    expect(after).toEqual({ rows: 1, top: 1 }); // d rolled back, a untouched
    const again = await rawTransaction(t.database.db, (tx) => tx.query('raw_tx_insert', INSERT, [['d'], [4], [], at]));
    expect(again).toHaveLength(1);
  });

  it('rolls back when the callback itself throws', async () => {
    await expect(
      rawTransaction(t.database.db, async (tx) => {
        await tx.query('raw_tx_insert', INSERT, [['e'], [5], [], new Date()]);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const [c] = await rawTransaction(t.database.db, (tx) => tx.query<{ rows: number }>('raw_tx_count', COUNT, [['e']]));
    expect(c!.rows).toBe(0);
  });
});
