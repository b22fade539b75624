import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, waitForHealth } from './globalSetup.js';

/**
 * Two yyp instances on one fresh PostgreSQL database (issue 23: a call made on one instance reaches
 * a screen connected to another): A seeds the demo tenant, B starts after it with YYP_DEMO off on
 * the same database and data directory, as a second node behind a load balancer would. The
 * database is created here and dropped by `stop()`. PostgreSQL must be reachable (CI has it): when
 * it is not, `startTwoInstances` throws saying so; nothing is skipped.
 */

/** The maintenance database to create and drop the test database from. */
const ADMIN_URL = process.env.E2E_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const root = path.resolve(import.meta.dirname, '..');

export interface Instance {
  /** e.g. http://127.0.0.1:40123 */
  base: string;
  child: ChildProcess;
  log: () => string;
}

export interface TwoInstances {
  a: Instance;
  b: Instance;
  databaseUrl: string;
  stop(): Promise<void>;
}

async function admin(sqlText: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL is not reachable at ${ADMIN_URL} (${(err as Error).message}); the two-instance calling e2e needs it`,
      { cause: err },
    );
  }
  try {
    await client.query(sqlText);
  } finally {
    await client.end();
  }
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const [port, dicomPort] = [await freePort(), await freePort()];
  let log = '';
  const child = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DICOM_PORT: String(dicomPort),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const base = `http://127.0.0.1:${port}`;
  const instance = { base, child, log: () => log };
  try {
    await waitForHealth(base, child, () => log);
  } catch (err) {
    await stopInstance(instance);
    throw err;
  }
  return instance;
}

async function stopInstance(instance: Instance): Promise<void> {
  const { child } = instance;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** A fresh database, instance A (demo seeded, no demo studies) and then B (YYP_DEMO off) on it. */
export async function startTwoInstances(): Promise<TwoInstances> {
  for (const file of ['packages/server/dist/main.js', 'packages/web/dist/index.html']) {
    if (!fs.existsSync(path.join(root, file))) throw new Error(`${file} is missing: run \`npm run build\` first`);
  }
  const name = `yyp_e2e_${process.pid}_${Date.now()}`;
  await admin(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-e2e-two-'));
  const started: Instance[] = [];
  const stop = async () => {
    await Promise.all(started.map(stopInstance));
    await admin(`drop database if exists ${name} with (force)`);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const shared = { DATABASE_URL: url.toString(), DATA_DIR: dataDir, JWT_SECRET: 'e2e-two-instances-0123456789abcdef' };
  try {
    started.push(await startInstance({ ...shared, YYP_DEMO: 'on', YYP_DEMO_STUDIES: 'off' }));
    started.push(await startInstance({ ...shared, YYP_DEMO: 'off' }));
  } catch (err) {
    await stop();
    throw err;
  }
  return { a: started[0]!, b: started[1]!, databaseUrl: url.toString(), stop };
}

/** A call to one instance's API (`/yyp/api/v1/` + urlPath) as `token`: a GET, or a POST of `body` as JSON. */
export async function instanceApi<T>(
  instance: Instance,
  token: string,
  urlPath: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${instance.base}/yyp/api/v1/${urlPath}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Signs a demo account in on one instance; its access token. */
export async function instanceLogin(instance: Instance, username: string, password = 'Yyp@2026'): Promise<string> {
  const res = await fetch(`${instance.base}/yyp/api/v1/accounts/login-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`login of ${username} on ${instance.base}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}
