// Small process, port and temp-dir helpers shared by the benchmark scripts. Everything a bench
// creates (temp dirs, child processes) is registered here so one cleanup — on success, error,
// timeout or Ctrl-C — removes it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const LOOPBACK = '127.0.0.1';

/** @type {Set<() => Promise<void> | void>} */
const cleanups = new Set();

/**
 * Registers `fn` to run at cleanup. Returns `release(runNow = true)`: unregisters it and, unless
 * told otherwise, runs it now (for resources that end early).
 */
export function onCleanup(fn) {
  cleanups.add(fn);
  return async (runNow = true) => {
    if (cleanups.delete(fn) && runNow) {
      await fn();
    }
  };
}

export async function cleanupAll() {
  const fns = [...cleanups].reverse();
  cleanups.clear();
  for (const fn of fns) {
    try {
      await fn();
    } catch (err) {
      console.error('cleanup failed:', err);
    }
  }
}

/**
 * Runs `main` with a hard time limit and guaranteed cleanup: a hung child process or server
 * must never outlive the benchmark.
 */
export async function runBounded(main, timeoutSeconds) {
  const timer = setTimeout(() => {
    console.error(`benchmark exceeded ${timeoutSeconds}s; cleaning up`);
    void cleanupAll().finally(() => process.exit(2));
  }, timeoutSeconds * 1000);
  const onSignal = () => void cleanupAll().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await main();
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await cleanupAll();
  }
}

const tempDirs = new Map();
let deferRemoval = false;

/**
 * From now on, removeTempDir leaves its dir for cleanupAll at the end. For benchmarks that create
 * and drop archives one after another: on ext4 without a journal (as on this project's machines),
 * every new file's inode search steps over the inodes freed in the last minute, one by one, so an
 * archive started just after another's 500 MB were deleted spends a fifth of its CPU there
 * (perf: find_inode_bit under ext4_create) — a cost of the benchmark, not of the archive.
 */
export function deferTempDirRemoval() {
  deferRemoval = true;
}

/** A temp dir removed at cleanup, or earlier with removeTempDir. */
export function makeTempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.set(
    dir,
    onCleanup(() => fs.rmSync(dir, { recursive: true, force: true })),
  );
  return dir;
}

export async function removeTempDir(dir) {
  if (deferRemoval) return;
  const release = tempDirs.get(dir);
  tempDirs.delete(dir);
  await release?.();
}

/** A TCP port free on loopback right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, LOOPBACK, () => {
      const { port } = /** @type {net.AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs a command to completion with a time limit; resolves with its exit code and output
 * (stdout/stderr kept to the last 64 KB, enough for DCMTK error messages).
 */
export function run(cmd, args, { env, timeoutMs = 600_000, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const keep = (s, d) => (s + d).slice(-65_536);
    child.stdout.on('data', (d) => (stdout = keep(stdout, d)));
    child.stderr.on('data', (d) => (stderr = keep(stderr, d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const release = onCleanup(() => child.kill('SIGKILL'));
    child.once('error', (err) => {
      clearTimeout(timer);
      void release(false);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      void release(false);
      resolve({ code, signal, stdout, stderr, timedOut: signal === 'SIGKILL' });
    });
  });
}

/** Nearest-rank percentile of a list of numbers. */
export function percentile(values, p) {
  if (values.length === 0) {
    return NaN;
  }
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** The median of throughput runs ({ perSecond }), with every run's rate kept beside it. */
export function medianRun(runs) {
  const sorted = [...runs].sort((a, b) => a.perSecond - b.perSecond);
  return { ...sorted[Math.floor(sorted.length / 2)], runs: runs.map((r) => r.perSecond) };
}

export const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Polls `check` until it returns truthy or `timeoutMs` passes. */
export async function waitFor(check, { timeoutMs = 30_000, intervalMs = 100, what = 'condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v) {
        return v;
      }
    } catch {
      /* not ready yet */
    }
    await sleep(intervalMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export function machine() {
  const cpus = os.cpus();
  return { cpus: cpus.length, model: cpus[0]?.model ?? 'unknown', node: process.version, platform: os.platform() };
}

/**
 * CPU time (user + system, in ms) of every process on the machine, summed by command name (the
 * `comm` of /proc/<pid>/stat up to its first slash, so all PostgreSQL backends count as one), and
 * by pid for the pids asked for. `cpuByProcessSince(before)` gives what each spent since `before`.
 */
export function cpuByProcess() {
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  const byPid = new Map();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const st = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const comm = st.slice(st.indexOf('(') + 1, st.lastIndexOf(')')).replace(/\/.*/, '');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      byPid.set(d, {
        comm,
        ms: (Number(f[11]) + Number(f[12])) * tick,
        user: Number(f[11]) * tick,
        sys: Number(f[12]) * tick,
      });
    } catch {
      // the process ended while being read
    }
  }
  return byPid;
}

/** What each command (and each of `pids`) spent since `before` (from cpuByProcess), busiest first. */
export function cpuByProcessSince(before, pids = []) {
  const after = cpuByProcess();
  const byComm = new Map();
  for (const [pid, v] of after) byComm.set(v.comm, (byComm.get(v.comm) ?? 0) + v.ms - (before.get(pid)?.ms ?? 0));
  const byPid = Object.fromEntries(
    pids.map((pid) => {
      const a = after.get(String(pid));
      const b = before.get(String(pid));
      return [pid, { user: (a?.user ?? 0) - (b?.user ?? 0), sys: (a?.sys ?? 0) - (b?.sys ?? 0) }];
    }),
  );
  return { byComm: [...byComm].filter((x) => x[1] > 0).sort((x, y) => y[1] - x[1]), byPid };
}

/** The machine's busy and idle CPU time so far, in ms (all cores summed), from /proc/stat. */
export function machineCpu() {
  const t = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  return { busy: (t[0] + t[1] + t[2] + t[5] + t[6]) * 10, idle: (t[3] + t[4]) * 10 };
}

/**
 * The machine's speed at this moment: milliseconds for a fixed single-threaded workload like a
 * server's (JSON of list pages written and read back, best of six). The same code on this kind
 * of machine has run from ~0.6× to 1× its best speed within an hour (a shared host), so results
 * record it beside their figures.
 */
export function cpuCalibrationMs() {
  const rows = Array.from({ length: 2000 }, (_, i) =>
    Object.fromEntries(Array.from({ length: 30 }, (_, k) => [`field${k}`, k % 3 ? `value ${i} ${k}` : i * k])),
  );
  let best = Infinity;
  for (let run = 0; run < 6; run++) {
    const start = performance.now();
    for (let i = 0; i < 10; i++) JSON.parse(JSON.stringify(rows));
    best = Math.min(best, performance.now() - start);
  }
  return Math.round(best);
}
