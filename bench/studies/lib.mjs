// Shared by bench/studies/index.mjs (the benchmark) and quick.mjs (the dev loop): the server, the
// cases, the load and a handle on the store.
import { spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const CONNECTIONS = 20;

export async function startServer(env) {
  const nodeArgs = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
  const child = spawn('node', [...nodeArgs, 'packages/server/dist/main.js'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'fatal', YYP_DEMO: 'on', YYP_DEMO_STUDIES: 'off', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${env.PORT}/yyp/api/v1/`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url + 'health')).ok) return { child, url };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('server did not start');
}

/** Signs in the seeded senior doctor (a content manager of every bench organization). */
export async function loginSenior(url) {
  const res = await fetch(url + 'accounts/login-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'senior', password: 'Yyp@2026' }),
  });
  return res.json();
}

export async function stopServer(child) {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** One query under load: every response's time is kept, so p95 is exact. */
export function load(url, token, body, seconds) {
  const times = [];
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: url + 'exams/page-query',
        method: 'POST',
        connections: CONNECTIONS,
        duration: seconds,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
        setupClient: (client) => client.on('response', (_status, _bytes, ms) => times.push(ms)),
      },
      (err, res) => {
        if (err) return reject(err);
        times.sort((a, b) => a - b);
        resolve({
          requestsPerSecond: Math.round(res.requests.average),
          latencyMs: {
            p50: percentile(times, 50),
            p95: percentile(times, 95),
            p99: percentile(times, 99),
            mean: Math.round((times.reduce((a, b) => a + b, 0) / times.length) * 10) / 10,
          },
          responses: times.length,
          non2xx: res.non2xx,
          errors: res.errors,
          timeouts: res.timeouts,
        });
      },
    );
  });
}

/** The four cases of the issue and the report source's two; the week is the newest week of seeded study dates. */
export function cases() {
  const only = process.env.BENCH_CASES ? process.env.BENCH_CASES.split(',') : null;
  const all = {
    defaultList: { filters: [], skip: 0, limit: 20 },
    namePrefix: { filters: [{ field: 'patientName', operator: 'prefix', values: ['zw'] }], skip: 0, limit: 20 },
    dateRangeAndModality: {
      filters: [
        { field: 'studyDate', operator: 'range', values: ['20261110', '20261116'] },
        { field: 'modality', operator: 'eq', values: ['CT'] },
      ],
      skip: 0,
      limit: 20,
    },
    deepPage: { filters: [], skip: 10_000, limit: 20 },
    // The report source (spec 000 §6) on the landing page: the remote copies (1 % of the exams,
    // read and counted from exams_live_remote_created_idx) and the own exams (the rest, counted
    // as the per-organization counters less the remote copies).
    reportSourceRemote: { filters: [{ field: 'reportSource', operator: 'eq', values: ['2'] }], skip: 0, limit: 20 },
    reportSourceOwn: { filters: [{ field: 'reportSource', operator: 'eq', values: ['1'] }], skip: 0, limit: 20 },
  };
  return only ? Object.fromEntries(Object.entries(all).filter(([k]) => only.includes(k))) : all;
}

/** A drizzle handle (for the server's own query builders) and a raw runner on the bench's store. */
export async function openStore(store, env, dataDir) {
  if (store === 'postgres') {
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 2 });
    return {
      db: drizzle(pool),
      run: async (sql, params = []) => (await pool.query(sql, params)).rows,
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const client = new PGlite(path.join(dataDir, 'pgdata'));
  await client.waitReady;
  return {
    db: drizzle(client),
    run: async (sql, params = []) => (await client.query(sql, params)).rows,
    close: () => client.close(),
  };
}
