import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedQuery } from './pglite-prepared.js';

let db: PGlite;

// Starting PGlite (a WebAssembly PostgreSQL) takes seconds on a loaded 2-core host: more than the
// unit tier's 10 s hook default once (a run beside five other test processes).
beforeAll(async () => {
  db = new PGlite();
  await db.exec('create table probe (id int primary key, name text, flags bool[])');
}, 60_000);
afterAll(() => db.close());

const INSERT = 'insert into probe select * from unnest($1::int[], $2::text[]) as u(id, name) returning id, name';

describe('preparedQuery (PGlite named prepared statements)', () => {
  it('answers what PGlite query() answers for the same text and parameters', async () => {
    await preparedQuery(db, 'ins', INSERT, [
      [1, 2, 3],
      ['张伟', null, 'O\'Brien, "Jr"'],
    ]);
    const text =
      'select id, name, id * 1.5 as half, array[id > 1, name is null] as flags from probe where id = any($1) order by id';
    const ours = await preparedQuery(db, 'sel', text, [[1, 2, 3]]);
    const theirs = (await db.query(text, [[1, 2, 3]])).rows;
    expect(ours).toEqual(theirs);
    expect(ours[1]).toEqual({ id: 2, name: null, half: '3.0', flags: [true, true] }); // numeric stays text, as in query()
  });

  it('parses a name once: later calls only bind and execute', async () => {
    await preparedQuery(db, 'count', 'select count(*)::int as n from probe where id > $1', [0]);
    // The name now stands for that text; another text under it runs the first (as with node-postgres).
    const rows = await preparedQuery(db, 'count', 'select 42 as n', [2]);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('prepares a name once when its first calls arrive together', async () => {
    // Before, each of these parsed the text and all but one failed: "prepared statement already exists".
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) => preparedQuery(db, 'together', 'select $1::int * 2 as n', [n])),
    );
    expect(answers).toEqual([1, 2, 3, 4, 5, 6].map((n) => [{ n: n * 2 }]));
  });

  it('uses a statement prepared under its name by another handle of the same database', async () => {
    await db.exec('prepare elsewhere (int) as select $1 + 100 as n');
    expect(await preparedQuery(db, 'elsewhere', 'select $1::int + 100 as n', [1])).toEqual([{ n: 101 }]);
  });

  it('throws PostgreSQL errors with their SQLSTATE and leaves the database usable', async () => {
    await expect(preparedQuery(db, 'ins', INSERT, [[1], ['again']])).rejects.toMatchObject({ code: '23505' });
    await expect(preparedQuery(db, 'bad', 'select nope from probe', [])).rejects.toMatchObject({ code: '42703' });
    // A text that failed to prepare is not remembered: the name can be prepared correctly next time.
    expect(await preparedQuery(db, 'bad', 'select 1 as one', [])).toEqual([{ one: 1 }]);
    expect((await db.query('select count(*)::int as n from probe')).rows).toEqual([{ n: 3 }]);
  });

  it('prepares a statement again when it was deallocated behind its back', async () => {
    await preparedQuery(db, 'again', 'select $1::int + 1 as n', [1]);
    await db.exec('deallocate all');
    expect(await preparedQuery(db, 'again', 'select $1::int + 1 as n', [41])).toEqual([{ n: 42 }]);
  });

  it('keeps a statement prepared inside a transaction that rolled back', async () => {
    await expect(
      db.transaction(async () => {
        await preparedQuery(db, 'in_tx', 'select $1::text as v', ['x']);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await preparedQuery(db, 'in_tx', 'select $1::text as v', ['y'])).toEqual([{ v: 'y' }]);
  });
});
