import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customSearches } from '../db/schema.js';
import { startWithStaff } from '../test/factories-platform.js';
import type { TestApp } from '../test/harness.js';
import { installErrorHandling, unstorableTextPath } from './http.js';

/**
 * Issue 19 item 3: U+0000 (and an unpaired surrogate, whose JSON escape jsonb refuses) anywhere
 * in a query value, a path parameter or a JSON string answers 400 ValidationError before any
 * handler or authorization runs, and changes nothing; database errors reach the log without the
 * values they repeat.
 */
let t: TestApp;
let doctor: string;

beforeAll(async () => {
  const built = await startWithStaff({}, ['doctor']);
  t = built.t;
  doctor = built.doctor.token;
});
afterAll(() => t.close());

const raw = (url: string, payload: string) =>
  t.app.inject({
    method: 'POST',
    url: `/yyp/api/v1/${url}`,
    headers: { authorization: `Bearer ${doctor}`, 'content-type': 'application/json' },
    payload,
  });

async function searchCount(): Promise<number> {
  const [row] = await t.db.database.db.select({ n: sql<number>`count(*)::int` }).from(customSearches);
  return row!.n;
}

function expectRefused(res: { statusCode: number; json(): unknown }, path: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ code: 'ValidationError', details: { issues: [{ path }] } });
}

describe('U+0000 and unpaired surrogates are refused with 400 before any handler', () => {
  it('in a path parameter, on the API and DICOMweb (authorization looks rows up by it)', async () => {
    expectRefused(await t.as(doctor).get('exams/ab%00cd'), 'params.examId');
    const web = await t.app.inject({
      method: 'GET',
      url: '/dicom-web/studies/1.2.3%00/series',
      headers: { authorization: `Bearer ${doctor}` },
    });
    expectRefused(web, 'params.study');
  });

  it('in a query value or key', async () => {
    const qido = (query: string) =>
      t.app.inject({
        method: 'GET',
        url: `/dicom-web/studies?${query}`,
        headers: { authorization: `Bearer ${doctor}` },
      });
    expectRefused(await qido('PatientName=Li%00Ming'), 'query.PatientName');
    expectRefused(await qido('PatientID=%00'), 'query.PatientID');
    expectRefused(await qido('Patient%00Name=x'), 'query.Patient\u0000Name');
    expect([200, 204]).toContain((await qido('PatientName=Li')).statusCode);
  });

  it('in a JSON string, at the top or nested, or a key, and creates nothing', async () => {
    const before = await searchCount();
    const body = (title: string, value: string) =>
      `{"type":"study","title":"${title}","criteria":{"studyDate":{"preset":"today"},"sorts":[],` +
      `"filters":[{"field":"modality","operator":"eq","values":["${value}"]}]}}`;
    expectRefused(await raw('custom-search/create', body('a\\u0000b', 'CT')), 'body.title');
    // Unescaped, a control character is not JSON at all.
    const rawNul = await raw('custom-search/create', body('a\u0000b', 'CT'));
    expect([rawNul.statusCode, rawNul.json()]).toMatchObject([400, { code: 'InvalidJson' }]);
    expectRefused(await raw('custom-search/create', body('nested', 'C\\u0000T')), 'body.criteria.filters.0.values.0');
    // A lone surrogate: PostgreSQL's jsonb refuses its escape; text would silently turn it into U+FFFD.
    expectRefused(await raw('custom-search/create', body('nested', 'C\\ud800T')), 'body.criteria.filters.0.values.0');
    expectRefused(await raw('custom-search/create', body('x\\udc00', 'CT')), 'body.title');
    // A key holding U+0000.
    const keyed = await raw('accounts/login-in', '{"username":"doctor","password":"x","a\\u0000":1}');
    expectRefused(keyed, 'body.a\u0000');
    expect(await searchCount()).toBe(before);
    // A pair that is whole is text like any other.
    const ok = await raw('custom-search/create', body('ok \\ud83d\\ude00', 'CT'));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await searchCount()).toBe(before + 1);
  });

  it('walks any depth without recursion', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(unstorableTextPath(deep, 'body')).toMatch(/^body(\.0){200000}$/);
    expect(unstorableTextPath({ a: [{ b: 'fine' }], c: Buffer.from([0]) }, 'body')).toBeNull();
  });
});

describe('database errors in the log', () => {
  it('keep the SQLSTATE and the names, never the values sent or the query parameters', async () => {
    const lines: string[] = [];
    // pino's own err serializer: the error handler itself leaves the values out.
    const logger = pino(
      {},
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
    installErrorHandling(app);
    const db = t.db.database.db;
    // A value the database refuses, sent past the input guard (this app has none).
    app.get('/nul', async () => {
      await db.execute(sql`select ${'王小东 secret\u0000name'}::text as v`);
      return {};
    });
    // A message that quotes the value: invalid input syntax for type integer: "…" (22P02, 400).
    app.get('/int', async () => {
      await db.execute(sql`select ${'secret-李雷'}::int as v`);
      return {};
    });
    // The same quoting in an error that is the server's (class 42, 500).
    app.get('/guc', async () => {
      await db.execute(sql`select set_config(${'secret-李雷'}, 'x', false)`);
      return {};
    });
    const nul = await app.inject({ method: 'GET', url: '/nul' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toMatchObject({ code: 'ValidationError' });
    expect((await app.inject({ method: 'GET', url: '/int' })).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/guc' })).statusCode).toBe(500);
    await app.close();
    const log = lines.join('\n');
    expect(log).toContain('"code":"22021"');
    expect(log).toContain('"code":"22P02"');
    expect(log).toMatch(/"level":50.*"code":"42\w{3}"/);
    expect(log).not.toContain('secret');
    expect(log).not.toContain('王小东');
    expect(log).not.toContain('李雷');
    expect(log).not.toMatch(/params:/);
  });
});
