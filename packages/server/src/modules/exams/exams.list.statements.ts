import type { Db } from '../../platform/db.js';

/**
 * How the study list runs its statements (exams.list.page.store.ts): built once and kept, named so that
 * PostgreSQL keeps their parse and plan, and their rows mapped by a mapper made once.
 */

/**
 * Runs a prepared list statement under the name its text was given (exam_list_1, … in order of
 * first use), so PostgreSQL parses it once per connection and may keep its plan (it still plans per
 * call where the parameters matter, such as a LIKE prefix). At most STATEMENT_NAMES_MAX distinct
 * texts are named, bounding what each connection keeps; past that, statements run unnamed. PGlite
 * runs them the same either way.
 */
const STATEMENT_NAMES_MAX = 200;
const statementNames = new Map<string, string>();
export function named<T>(prepared: { execute(): Promise<T> }): Promise<T> {
  const config = prepared as unknown as {
    queryString?: string;
    queryConfig?: { name?: string };
    rawQueryConfig?: { name?: string };
  };
  if (typeof config.queryString === 'string' && config.queryConfig && config.rawQueryConfig) {
    let name = statementNames.get(config.queryString);
    if (name === undefined && statementNames.size < STATEMENT_NAMES_MAX) {
      name = `exam_list_${statementNames.size + 1}`;
      statementNames.set(config.queryString, name);
    }
    if (name !== undefined) {
      config.queryConfig.name = name;
      config.rawQueryConfig.name = name;
    }
  }
  return prepared.execute();
}

/** Column types whose driver value is already the row's value (drizzle's mapping is the identity). */
const AS_READ = new Set(['PgText', 'PgVarchar', 'PgBoolean', 'PgUUID']);

/**
 * Gives a prepared list statement a row mapper made once from its fields, instead of drizzle's,
 * which works out each field's kind again for every field of every row (a page is 20 rows of 40
 * fields); the same values: each field decoded as drizzle would, nulls kept. Statements with nested
 * fields are left as they are.
 */
export function mappedOnce<T>(prepared: T): T {
  const p = prepared as unknown as {
    fields?: { path: string[]; field: Record<string, unknown> }[];
    customResultMapper?: (rows: unknown[][]) => unknown[];
  };
  const fields = p.fields;
  if (!fields || fields.some((f) => f.path.length !== 1)) return prepared;
  const keys = fields.map((f) => f.path[0]!);
  const decoders = fields.map(({ field }) => {
    const decoder = (
      'columnType' in field
        ? field
        : ((field.decoder ?? (field.sql as Record<string, unknown> | undefined)?.decoder) as Record<string, unknown>)
    ) as { columnType?: string; mapFromDriverValue(v: unknown): unknown } | undefined;
    if (!decoder || (decoder.columnType !== undefined && AS_READ.has(decoder.columnType))) return null;
    return (v: unknown) => decoder.mapFromDriverValue(v);
  });
  p.customResultMapper = (rows) =>
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const v = row[i];
        const decode = decoders[i];
        out[keys[i]!] = v === null ? null : decode ? decode(v) : v;
      }
      return out;
    });
  return prepared;
}

/**
 * Built statements kept per database handle: a list's statements built once per organizations,
 * filters, sorts and page window (`key`) and run again as they are, values included. Building a
 * statement's text costs more than looking it up; the most recently used STATEMENT_NAMES_MAX are
 * kept. A null key builds anew (lists whose values change at each call).
 */
const keptStatements = new WeakMap<Db, Map<string, unknown>>();
export function kept<T>(db: Db, key: string | null, build: () => T): T {
  if (key === null) return build();
  let map = keptStatements.get(db);
  if (!map) keptStatements.set(db, (map = new Map()));
  if (map.has(key)) {
    const found = map.get(key) as T;
    map.delete(key);
    map.set(key, found);
    return found;
  }
  const built = build();
  map.set(key, built);
  if (map.size > STATEMENT_NAMES_MAX) map.delete(map.keys().next().value!);
  return built;
}
