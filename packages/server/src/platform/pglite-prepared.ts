import { serialize } from 'pg-protocol';
import type { Db } from './db.js';

/** The part of PGlite's interface a prepared statement needs (the extended query protocol). */
export interface PgliteProtocol {
  serializers: Record<number, (value: unknown) => string>;
  parsers: Record<number, (text: string, typeId: number) => unknown>;
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
  execProtocolStream(message: Uint8Array, opts: { syncToFs: boolean }): Promise<{ name: string }[]>;
}

interface Statement {
  paramTypes: number[];
  fields: { name: string; dataTypeID: number }[];
}

/** Per database: each name's statement, or its preparation under way (calls arriving together share it). */
const statementsOf = new WeakMap<PgliteProtocol, Map<string, Promise<Statement>>>();

/** PostgreSQL's "prepared statement does not exist". */
const NO_SUCH_STATEMENT = '26000';
/** PostgreSQL's "prepared statement already exists". */
const STATEMENT_EXISTS = '42P05';

function run(db: PgliteProtocol, ...messages: Buffer[]) {
  return db.runExclusive(() =>
    db.execProtocolStream(Buffer.concat([...messages, serialize.sync()]), { syncToFs: false }),
  );
}

async function describe(db: PgliteProtocol, name: string): Promise<Statement> {
  const messages = await run(db, serialize.describe({ type: 'S', name }));
  const params = messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs?: number[] } | undefined;
  const rows = messages.find((m) => m.name === 'rowDescription') as Partial<Statement> | undefined;
  return { paramTypes: params?.dataTypeIDs ?? [], fields: rows?.fields ?? [] };
}

async function prepare(db: PgliteProtocol, name: string, text: string): Promise<Statement> {
  try {
    await run(db, serialize.parse({ name, text }));
  } catch (err) {
    // Already prepared under that name (a name stands for one text): describe the one there.
    if ((err as { code?: string }).code !== STATEMENT_EXISTS) throw err;
  }
  return describe(db, name);
}

/**
 * `text` run on PGlite as the named prepared statement `name`: parsed, analysed and described
 * once per database (PostgreSQL caches its plan), then only bound and executed. PGlite's own
 * query() parses and plans its text at every call, which for the ingest upsert (four inserts in
 * one statement) cost about three times the execution. Parameters are serialized and results
 * parsed with the database's own type handlers, as query() does; errors are PGlite's
 * DatabaseError, with the SQLSTATE in `code`. A name stands for one text (as with node-postgres).
 * Named statements survive a rolled-back transaction; one dropped behind our back is prepared again.
 */
export async function preparedQuery(
  db: PgliteProtocol,
  name: string,
  text: string,
  params: unknown[],
): Promise<Record<string, unknown>[]> {
  let statements = statementsOf.get(db);
  if (!statements) statementsOf.set(db, (statements = new Map()));
  for (let attempt = 1; ; attempt++) {
    let pending = statements.get(name);
    if (!pending) {
      const preparing = prepare(db, name, text);
      statements.set(name, (pending = preparing));
      // A text that failed to prepare is not remembered.
      preparing.catch(() => {
        if (statements.get(name) === preparing) statements.delete(name);
      });
    }
    const statement = await pending;
    const { paramTypes, fields } = statement;
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serializer = db.serializers[paramTypes[i]!];
      return serializer ? serializer(v) : String(v);
    });
    let messages: { name: string }[];
    try {
      messages = await run(db, serialize.bind({ statement: name, values }), serialize.execute({}));
    } catch (err) {
      if ((err as { code?: string }).code !== NO_SUCH_STATEMENT || attempt > 1) throw err;
      if (statements.get(name) === pending) statements.delete(name);
      continue;
    }
    const rows: Record<string, unknown>[] = [];
    for (const m of messages) {
      if (m.name !== 'dataRow') continue;
      const cells = (m as unknown as { fields: (string | null)[] }).fields;
      const row: Record<string, unknown> = {};
      fields.forEach((f, i) => {
        const cell = cells[i];
        const parser = db.parsers[f.dataTypeID];
        row[f.name] = cell === null || cell === undefined ? null : parser ? parser(cell, f.dataTypeID) : cell;
      });
      rows.push(row);
    }
    return rows;
  }
}

interface PgPoolLike {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
  totalCount: number;
}

/**
 * `text` as the prepared statement `name` on either database, outside any transaction: a named
 * statement of node-postgres on PostgreSQL (prepared once per connection), preparedQuery on PGlite.
 * Rows come with the driver's own type parsing (Date for timestamptz, parsed json, booleans).
 */
export async function preparedRows<R>(db: Db, name: string, text: string, params: unknown[]): Promise<R[]> {
  const client = (db as unknown as { $client: PgPoolLike | PgliteProtocol }).$client;
  if ('totalCount' in client) return (await client.query({ name, text, values: params })).rows as R[];
  return (await preparedQuery(client, name, text, params)) as R[];
}
