/**
 * DCMTK as a radiology workstation querying and retrieving from yyp, for tests: findscu (-P / -S)
 * with its answers extracted and dumped, movescu and getscu, and storescp as a C-MOVE destination.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { dumpValue } from './findscu.js';

const run = promisify(execFile);
export { dumpValue };

/** findscu as `aet` (model -S study root, -P patient root) with `keys` (-k); each answer as dcmdump lists it in UTF-8. */
export async function findscu(
  dir: string,
  port: number,
  aet: string,
  model: '-S' | '-P',
  keys: string[],
): Promise<string[]> {
  const out = fs.mkdtempSync(path.join(dir, 'find-'));
  await run('findscu', [
    model,
    '-aet',
    aet,
    '-aec',
    'YYP',
    ...keys.flatMap((k) => ['-k', k]),
    '-X',
    '-od',
    out,
    '127.0.0.1',
    String(port),
  ]);
  const files = fs.readdirSync(out).sort();
  return Promise.all(
    files.map(async (f) => (await run('dcmdump', ['+U8', '-q', path.join(out, f)], { encoding: 'utf8' })).stdout),
  );
}

/** Every value of `tag` in a list of dumps. */
export const valuesOf = (dumps: string[], tag: string): (string | undefined)[] => dumps.map((d) => dumpValue(d, tag));

/** movescu or getscu as `aet`; answers its log (-v) and whether it exited 0. */
export async function retrieve(
  tool: 'movescu' | 'getscu',
  port: number,
  aet: string,
  args: string[],
): Promise<{ ok: boolean; log: string }> {
  try {
    const { stdout, stderr } = await run(tool, ['-v', '-aet', aet, '-aec', 'YYP', ...args, '127.0.0.1', String(port)]);
    return { ok: true, log: stdout + stderr };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, log: (e.stdout ?? '') + (e.stderr ?? '') };
  }
}

/** A free TCP port on the loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * DCMTK's storescp as AE `aet` on `at` (a free port unless given), writing what it receives into
 * `dir` (accepting every transfer syntax).
 */
export async function startStorescp(
  dir: string,
  aet: string,
  at?: number,
): Promise<{ port: number; stop(): void; files(): string[] }> {
  fs.mkdirSync(dir, { recursive: true });
  const port = at ?? (await freePort());
  const child: ChildProcess = spawn('storescp', ['-aet', aet, '+xa', '-od', dir, String(port)], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    stop: () => child.kill('SIGTERM'),
    files: () => fs.readdirSync(dir).filter((f) => !f.startsWith('.')),
  };
}
