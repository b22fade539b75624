import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureMessage } from './cli-failure.js';
import { patients } from './db/schema.js';
import { createTestDatabase, type TestDatabase } from './test/harness.js';

/** What `yyp <command>` prints when it fails (cli.ts): never the values a failed query carried. */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('the query did not fail');
}

describe('CLI failure message', () => {
  it('prints a database error by SQLSTATE and names, without the values in the query or its message', async () => {
    const d = db.database.db;
    // The database quotes the value in its own message; drizzle adds the query and its parameters.
    const cast = await failure(() => d.execute(sql`select ${'ZHANG^SAN 19580312'}::int`));
    expect(String((cast as Error).message)).toContain('ZHANG^SAN');
    const message = failureMessage(cast);
    expect(message).toMatch(/^database error 22P02: /);
    expect(message).not.toMatch(/ZHANG|19580312|select/);

    const nul = await failure(() =>
      d.insert(patients).values({
        id: 'p1',
        bucketId: 'no-such-bucket',
        patientKey: 'k',
        patientId: 'ID-4711',
        name: 'WANG\0WEI',
        sex: '',
        birthDate: '',
        createdAt: new Date(),
        updatedAt: new Date(),
      }),
    );
    expect(failureMessage(nul)).toMatch(/^database error 22/);
    expect(failureMessage(nul)).not.toMatch(/WANG|ID-4711|insert/);
  });

  it('prints other errors as they are', () => {
    expect(failureMessage(new Error('username: letters, digits, dash and underscore only'))).toBe(
      'username: letters, digits, dash and underscore only',
    );
    expect(failureMessage('plain')).toBe('plain');
  });
});
