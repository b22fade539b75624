import { IDEMPOTENCY_HEADER, idempotencyKeySchema } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { idempotencyKeys } from '../db/schema.js';
import type { Db } from './db.js';
import { AppError, errors } from './errors.js';

/*
 * Idempotent money calls (issue 24: "every money-changing call is idempotent (an idempotency key per
 * request)"). The caller sends an Idempotency-Key header; the first request with it stores (account,
 * key, a hash of the call and body) together with its answer, in the same transaction as the work,
 * so either both are written or neither is. A repeat with the same call and body answers the stored
 * answer without running again; the same key with anything else is refused (IdempotencyKeyReused,
 * 409). A duplicate arriving while the first still runs waits on the key's primary key and then
 * answers the first's answer. A request that fails stores nothing, so its retry runs afresh.
 */

/** JSON with object keys sorted, so the same body hashes the same whatever its key order. */
function canonicalJson(value: unknown): string {
  if (value === undefined) {
    return 'null';
  }
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'null';
  }
  if (value instanceof Date) {
    return JSON.stringify(value.toISOString());
  }
  if (Array.isArray(value)) {
    return `[${value.map(canonicalJson).join(',')}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function requestHash(call: string, body: unknown): string {
  return createHash('sha256').update(call).update('\n').update(canonicalJson(body)).digest('hex');
}

/** The request's Idempotency-Key, validated; undefined when it sent none. */
export function idempotencyKeyOf(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) {
    return undefined;
  }
  const parsed = idempotencyKeySchema.safeParse(Array.isArray(raw) ? raw[0] : raw);
  if (!parsed.success) {
    throw errors.validation('Idempotency-Key must be 8–128 letters, digits or _.:-', { header: IDEMPOTENCY_HEADER });
  }
  return parsed.data;
}

export interface IdempotentRequest {
  accountId: string;
  /** undefined: the caller sent no key, so the work simply runs (in a transaction) */
  key: string | undefined;
  /** the call's name (e.g. 'POST credits/top-up'): a key reused on another call is refused too */
  call: string;
  body: unknown;
}

/**
 * Runs `work` once per (account, key) in one transaction with the key's row; a repeat answers the
 * stored answer (as JSON: dates come back as strings). The answer must be JSON-serialisable.
 */
export async function idempotent<T>(db: Db, req: IdempotentRequest, work: (tx: Db) => Promise<T>): Promise<T> {
  if (req.key === undefined) {
    return db.transaction((tx) => work(tx));
  }
  const key = req.key;
  const hash = requestHash(req.call, req.body);
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({ accountId: req.accountId, key, requestHash: hash })
      .onConflictDoNothing({ target: [idempotencyKeys.accountId, idempotencyKeys.key] })
      .returning({ key: idempotencyKeys.key });
    if (claimed.length === 0) {
      const rows = await tx
        .select({ requestHash: idempotencyKeys.requestHash, answer: idempotencyKeys.answer })
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.accountId, req.accountId), eq(idempotencyKeys.key, key)));
      const row = rows[0];
      if (!row || row.requestHash !== hash) {
        throw new AppError(
          'IdempotencyKeyReused',
          'This Idempotency-Key was already used for another request; send a new key for a new request',
        );
      }
      return row.answer as T;
    }
    const answer = await work(tx);
    await tx
      .update(idempotencyKeys)
      .set({ status: 200, answer: (answer ?? null) as unknown })
      .where(and(eq(idempotencyKeys.accountId, req.accountId), eq(idempotencyKeys.key, key)));
    return answer;
  });
}
