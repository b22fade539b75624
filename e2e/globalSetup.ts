import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/** The JWT secret the server runs with, so a test can sign an expired but well-signed token. */
export const E2E_JWT_SECRET = 'e2e-secret-for-tests-only-0123456789';
/** coturn's static-auth-secret in the e2e (the server hands out credentials made with it) */
export const E2E_TURN_SECRET = 'e2e-turn-secret-for-tests-only';
/** The viewer registered with yyp's OpenID Connect provider in the e2e server (e2e/oidc-viewer.e2e.ts); nothing listens at its redirect URI: the test takes the redirect in the browser. */
export const E2E_VIEWER_CLIENT = 'e2e-viewer';
export const E2E_VIEWER_REDIRECT = 'http://127.0.0.1:9/callback';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    jwtSecret: string;
    /** the server's DICOM (C-ECHO/C-STORE) port on 127.0.0.1 */
    dicomPort: number;
    /** where the video rooms' TURN server is expected (127.0.0.1, UDP) and its REST-API secret (consultation-video e2e starts coturn there) */
    turnPort: number;
    turnSecret: string;
    /** the server's SMS simulator (YYP_SMS=sim): GET /inbox.json?phone= lists the codes it received */
    smsInbox: string;
  }
}

const root = path.resolve(import.meta.dirname, '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    }
    try {
      const res = await fetch(`${baseUrl}/yyp/api/v1/health`);
      if (res.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not become healthy within 60 s:\n${output()}`);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const main = path.join(root, 'packages/server/dist/main.js');
  const webIndex = path.join(root, 'packages/web/dist/index.html');
  for (const file of [main, webIndex]) {
    if (!fs.existsSync(file)) {
      throw new Error(`${path.relative(root, file)} is missing: run \`npm run build\` before the e2e tests`);
    }
  }
  const [port, dicomPort, turnPort, smsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-e2e-'));
  let log = '';
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DICOM_PORT: String(dicomPort),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      YYP_DEMO: 'on',
      JWT_SECRET: E2E_JWT_SECRET,
      LOG_LEVEL: 'warn',
      YYP_TURN_URLS: `turn:127.0.0.1:${turnPort}?transport=udp`,
      YYP_TURN_SECRET: E2E_TURN_SECRET,
      YYP_SMS: 'sim',
      // WeChat login through its loopback simulator (e2e/wx-login.e2e.ts scans its QR-code page).
      YYP_WX_LOGIN: 'sim',
      YYP_SMS_SIM_PORT: String(smsPort),
      // yyp as the OpenID Connect provider of a viewer on another origin (e2e/oidc-viewer.e2e.ts).
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      OIDC_PROVIDER_CLIENTS: JSON.stringify([
        { client_id: E2E_VIEWER_CLIENT, client_name: 'PACS 工作站', redirect_uris: [E2E_VIEWER_REDIRECT] },
      ]),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let stopping = false;
  // A server that dies under the tests says why, instead of leaving only refused connections.
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`e2e server exited unexpectedly (code ${code}, signal ${signal}):\n${log}`);
  });

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, child, () => log);
  } catch (error) {
    stopping = true;
    child.kill('SIGKILL');
    throw error;
  }
  project.provide('baseUrl', baseUrl);
  project.provide('jwtSecret', E2E_JWT_SECRET);
  project.provide('dicomPort', dicomPort);
  project.provide('turnPort', turnPort);
  project.provide('turnSecret', E2E_TURN_SECRET);
  project.provide('smsInbox', `http://127.0.0.1:${smsPort}`);
  fs.mkdirSync(path.join(import.meta.dirname, 'screenshots'), { recursive: true });

  return async () => {
    stopping = true;
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
