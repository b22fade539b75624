// Starts the built yyp server (packages/server/dist/main.js) as a benchmark target: fresh data dir,
// free ports on 127.0.0.1, demo tenant seeded (calling AE DEMO_MODALITY stores into RH-RAD), on
// embedded PGlite or on a fresh PostgreSQL database. Server, database and data dir are removed at
// cleanup, even when the bench fails.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { LOOPBACK, freePort, makeTempDir, onCleanup, removeTempDir, sleep, waitFor } from './util.mjs';

const MAIN = new URL('../../packages/server/dist/main.js', import.meta.url).pathname;
/** A maintenance database to create and drop the bench databases from. */
const ADMIN_URL = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const USER = { username: 'tech', password: 'Yyp@2026' };

async function admin(sqlText) {
  const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  await c.connect();
  try {
    await c.query(sqlText);
  } finally {
    await c.end();
  }
}

/**
 * A new empty PostgreSQL database, dropped at cleanup unless BENCH_KEEP_DB is set (to read its plans
 * afterwards; its name is printed). Returns its URL and `drop()`.
 */
async function createDatabase() {
  const name = `yyp_bench_${process.pid}_${Date.now()}`;
  await admin(`create database ${name}`);
  if (process.env.BENCH_KEEP_DB) console.log(`bench database ${name} is kept (BENCH_KEEP_DB)`);
  const drop = onCleanup(() =>
    process.env.BENCH_KEEP_DB ? undefined : admin(`drop database if exists ${name} with (force)`),
  );
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop };
}

function portOpen(port) {
  return new Promise((resolve) => {
    const s = net.connect(port, LOOPBACK);
    s.setTimeout(1000, () => s.destroy());
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('close', () => resolve(false));
  });
}

/**
 * @param {{ store?: 'pglite' | 'postgres', env?: object, nodeArgs?: string[], main?: string, startTimeoutMs?: number,
 *   restart?: { dataDir: string, dbUrl: string | null } }} [opts]
 *   `nodeArgs` go to node before main.js (e.g. --cpu-prof to profile the server); `main` is
 *   another build's main.js (A/B comparisons), packages/server/dist/main.js by default.
 *   `restart` starts a server again on the data dir and database of one stopped with `kill()`
 *   (e.g. to profile reads without the ingest that stored them); the first one's `stop()`
 *   removes them.
 * @returns {Promise<import('./orthanc.mjs').DicomTarget & { httpBase: string, version: string,
 *   store: string, logFile: string, dbUrl: string | null, dataDir: string, kill: () => Promise<void>,
 *   stop: () => Promise<void> }>}
 */
export async function startYyp(opts = {}) {
  const store = opts.store ?? 'pglite';
  const dir = opts.restart ? path.dirname(opts.restart.dataDir) : makeTempDir(`yyp-bench-yyp-${store}-`);
  const [httpPort, dicomPort] = [await freePort(), await freePort()];
  const db = opts.restart
    ? opts.restart.dbUrl && { url: opts.restart.dbUrl, drop: async () => undefined }
    : store === 'postgres'
      ? await createDatabase()
      : null;
  const logFile = path.join(dir, 'yyp.log');
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.main ?? MAIN], {
    env: {
      ...process.env,
      HOST: LOOPBACK,
      PORT: String(httpPort),
      DICOM_PORT: String(dicomPort),
      DICOM_AET: 'YYP',
      DATA_DIR: path.join(dir, 'data'),
      LOG_LEVEL: 'warn',
      YYP_DEMO: 'on',
      YYP_DEMO_STUDIES: 'off',
      DATABASE_URL: db ? db.url : '',
      // Benchmarks sign many users in from loopback at once: the per-address login limits are off.
      RATE_LIMIT_MULTIPLIER: '0',
      ...opts.env,
    },
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const kill = onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await Promise.race([exited, sleep(12_000).then(() => null)]))) {
        child.kill('SIGKILL');
        await exited;
      }
    }
  });
  const stop = async () => {
    await kill();
    if (opts.restart) return;
    await db?.drop();
    await removeTempDir(dir);
  };

  const httpBase = `http://${LOOPBACK}:${httpPort}`;
  let health;
  let token;
  try {
    health = await Promise.race([
      waitFor(
        async () => {
          const res = await fetch(`${httpBase}/yyp/api/v1/health`, { signal: AbortSignal.timeout(2000) });
          return res.ok ? res.json() : undefined;
        },
        { timeoutMs: opts.startTimeoutMs ?? 60_000, what: 'yyp health' },
      ),
      exited.then(({ code, signal }) => {
        throw new Error(`yyp exited during start (code ${code}, signal ${signal})`);
      }),
    ]);
    // The DICOM port opens just after HTTP.
    await waitFor(() => portOpen(dicomPort), { timeoutMs: 10_000, what: 'yyp DICOM port' });
    token = await login(httpBase);
  } catch (err) {
    const tail = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-4000) : '';
    await stop();
    throw new Error(`${err.message}\n--- yyp log ---\n${tail}`, { cause: err });
  }

  return {
    host: LOOPBACK,
    dicomPort,
    aet: 'YYP',
    callingAet: 'DEMO_MODALITY',
    dicomWebBase: `${httpBase}/dicom-web`,
    token,
    httpBase,
    version: health.version,
    store,
    pid: child.pid,
    logFile,
    /** the server's PostgreSQL database (null on PGlite) and data directory, for counting rows */
    dbUrl: db?.url ?? null,
    dataDir: path.join(dir, 'data'),
    /** stops the process only (the database and files stay); `stop()` removes them too */
    kill: () => kill(),
    stop,
  };
}

async function login(httpBase) {
  return (await yypLogin({ httpBase }, USER.username, USER.password)).accessToken;
}

/** Instances yyp holds in what the token may see: QIDO studies, summing 00201208, page by page. */
export async function yypInstanceCount(target) {
  let total = 0;
  for (let offset = 0; ; offset += 1000) {
    const res = await fetch(`${target.dicomWebBase}/studies?limit=1000&offset=${offset}`, {
      headers: { accept: 'application/dicom+json', authorization: `Bearer ${target.token}` },
    });
    if (res.status === 204) {
      return total;
    }
    if (!res.ok) {
      throw new Error(`QIDO count answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    }
    const studies = await res.json();
    total += studies.reduce((sum, s) => sum + Number(s['00201208']?.Value?.[0] ?? 0), 0);
    if (studies.length < 1000) {
      return total;
    }
  }
}

/** The demo accounts' password. */
export const DEMO_PASSWORD = 'Yyp@2026';

/** A call to yyp's API as `token`: a GET, or a POST of `body` as JSON. Answers the JSON; throws on an error status. */
export async function yypApi(target, token, urlPath, body) {
  const res = await fetch(`${target.httpBase}/yyp/api/v1/${urlPath}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${urlPath} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Signs an account in (a demo one by default); answers the login's answer (accessToken, expires, loginType). */
export async function yypLogin(target, username, password = DEMO_PASSWORD) {
  const res = await fetch(`${target.httpBase}/yyp/api/v1/accounts/login-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok || !body.accessToken) {
    throw new Error(`login as ${username} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  return body;
}
