#!/usr/bin/env node
// Runs every test tier and ends with one line "N passed, N failed" summed over all of them:
// lint, unit + web (vitest), integration on PGlite, integration on PostgreSQL, e2e in Chromium.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { e2eShardCount, e2eSharedShards, e2eShards } from './e2e-shards.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-test-'));
const pgUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
let passed = 0;
let failed = 0;
const tiers = [];
/** the failed tests' names, repeated at the end so that the run's last lines say what failed */
const failures = [];
const started = Date.now();
/** the priority the integration tiers run at beside the e2e (nice: 0 normal, 19 lowest) */
const NICE = 10;
const since = (t) => `${Math.round((Date.now() - t) / 1000)} s`;

function run(cmd, args, env = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return res.status === 0;
}

const vitestArgs = (args, out) => [
  'vitest',
  'run',
  ...args,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${out}`,
];

/**
 * Starts tiers that share no state side by side; each one's output is kept in a file. `nice` runs
 * them at a lower priority (see below). The promise gives each tier's result when all have ended.
 */
function startTiers(list, { nice = false } = {}) {
  const t0 = Date.now();
  return Promise.all(
    list.map(({ name, args, env, cmd }) => {
      // a tier's name is its files' name, without path separators ("e2e (Chromium) 1/2")
      const base = name.replaceAll('/', ' of ');
      const out = path.join(reports, `${base}.json`);
      const log = path.join(reports, `${base}.log`);
      const fd = fs.openSync(log, 'w');
      // A gate (cmd) runs as given; a vitest tier writes its JSON report.
      const [file, argv] = cmd ?? ['npx', vitestArgs(args, out)];
      const [runFile, runArgv] = nice ? ['nice', ['-n', String(NICE), file, ...argv]] : [file, argv];
      const child = spawn(runFile, runArgv, {
        cwd: root,
        stdio: ['ignore', fd, fd],
        env: { ...process.env, ...env },
      });
      return new Promise((resolve) =>
        child.on('close', (code) => {
          fs.closeSync(fd);
          resolve({ name, out, log, ok: code === 0, gate: Boolean(cmd), took: since(t0) });
        }),
      );
    }),
  );
}

/** Prints each tier's output and adds its counts. */
function report(results) {
  for (const r of results) {
    console.log(`\n=== ${r.name} ===`);
    process.stdout.write(fs.readFileSync(r.log, 'utf8'));
    if (r.gate) gate(r.name, r.ok, r.took);
    else count(r.name, r.out, r.ok, r.took);
  }
}

function count(name, out, ok, took) {
  let p = 0;
  let f = 0;
  if (fs.existsSync(out)) {
    const r = JSON.parse(fs.readFileSync(out, 'utf8'));
    p = r.numPassedTests ?? 0;
    f = (r.numFailedTests ?? 0) + (r.numTotalTests === 0 ? 1 : 0);
    // A file that failed to load counts as a failure even though it ran no test.
    f += (r.testResults ?? []).filter((t) => t.status === 'failed' && (t.assertionResults ?? []).length === 0).length;
    for (const file of r.testResults ?? []) {
      const where = path.relative(root, file.name);
      const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
      if (file.status === 'failed' && failedTests.length === 0) failures.push(`${name}: ${where} did not load`);
      for (const a of failedTests) {
        const why = String(a.failureMessages?.[0] ?? '')
          .split('\n')[0]
          .slice(0, 200);
        failures.push(`${name}: ${where} > ${a.fullName} (${Math.round(a.duration ?? 0)} ms): ${why}`);
      }
    }
  }
  if (!ok && f === 0) f = 1;
  passed += p;
  failed += f;
  tiers.push(`${name}: ${p} passed, ${f} failed (${took})`);
}

/** A gate, not a test: it adds a failure when it fails and nothing when it passes. */
function gate(name, ok, took) {
  tiers.push(`${name}: ${ok ? 'ok' : 'FAILED'}${took ? ` (${took})` : ''}`);
  if (!ok) failed += 1;
}

function step(name, cmd, args, env) {
  const t0 = Date.now();
  console.log(`\n=== ${name} ===`);
  const ok = run(cmd, args, env);
  gate(name, ok, since(t0));
  return ok;
}

function reachable(url) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port || 5432) });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.setTimeout(2000, () => (s.destroy(), resolve(false)));
  });
}

if (!run('bash', ['scripts/install-test-deps.sh'])) {
  failed += 1;
  tiers.push('test dependencies: FAILED');
}
const built = step('build', 'npm', ['run', 'build', '--silent']);
// The lint (one eslint process) runs beside the unit and web tests, which get two workers so that no
// core idles once the lint ends (2026-11-28: 632 s with one worker, 609 s with two, all passing).
console.log('\n=== lint and unit+web, side by side (output follows when both end) ===');
report(
  await startTiers([
    { name: 'lint', cmd: ['npm', ['run', 'lint', '--silent']] },
    { name: 'unit+web', args: ['--project', 'unit', '--project', 'web', '--maxWorkers=2'] },
  ]),
);

// Then the e2e tier (a browser, its server and vitest) beside both integration tiers. The e2e waits
// on one page or one answer at a time and kept about one core busy (2026-11-28: 1,100 CPU-s in
// 1,093 s, Chromium 850 of them), so it runs at normal priority and the integration tiers at a lower
// one (nice), taking the CPU it leaves: the e2e's 15 s steps see no more contention than alone,
// and the integration tests' limit (60 s, vitest.config.ts) is far above what a pause costs them.
// The web tests stay out of this phase: under the e2e they crossed their 15 s limit (32 failed
// when the unit and web tiers ran niced beside the e2e on 2026-11-28).
// The e2e files run in two shards, each a vitest process with its own server: the first starts with
// the integration tiers and the second, with the smaller share of the files' recorded time
// (E2E_LATE_SHARE, 0.25; e2e/durations.json), when they or the first shard end (below). Two shards from
// the start ran at a load of 10 beside them (2026-11-28: two report-editor tests hit their 60 s
// limit); one shard alone left a core idle for the e2e's last ~15 minutes (CI 2,649 s, stop 42).
// E2E_LATE_SHARE=0 runs one shard; E2E_SHARDS=N runs N equal shards all from the start.
const lateShare = Number(process.env.E2E_LATE_SHARE ?? 0.25);
const e2eTier = (files, i, count) => ({
  name: count === 1 ? 'e2e (Chromium)' : `e2e (Chromium) ${i + 1}/${count}`,
  args: ['--config', 'e2e/vitest.config.ts', ...files],
});
let e2eRun = Promise.resolve([]);
let lateShard = null;
if (built) {
  const shards = process.env.E2E_SHARDS
    ? e2eShards(e2eShardCount())
    : lateShare > 0
      ? e2eSharedShards([1 - lateShare, lateShare])
      : e2eShards(1);
  const e2eTiers = shards.map((s, i) => e2eTier(s.files, i, shards.length));
  if (!process.env.E2E_SHARDS && e2eTiers.length === 2) lateShard = e2eTiers.pop();
  console.log(
    `\n=== e2e (Chromium) in ${shards.length} shard(s)${lateShard ? ', the second once the integration tiers or the first shard end' : ''}, beside the integration tiers (output follows) ===`,
  );
  e2eRun = startTiers(e2eTiers);
} else tiers.push('e2e (Chromium): not run, build failed');

// PGlite's tier is the longer (749 s against PostgreSQL's 446 s on 2026-11-28): two workers, so it
// takes the core the PostgreSQL tier leaves when it ends.
const intTiers = [{ name: 'int (PGlite)', args: ['--project', 'int', '--maxWorkers=2'], env: { DATABASE_URL: '' } }];
if (!(await reachable(pgUrl)) && process.getuid?.() === 0) {
  run('bash', ['-c', 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start']);
}
if (await reachable(pgUrl)) {
  intTiers.push({ name: 'int (PostgreSQL)', args: ['--project', 'int'], env: { DATABASE_URL: pgUrl } });
} else {
  console.log(`PostgreSQL is not reachable at ${pgUrl}: the PostgreSQL tier fails`);
  failed += 1;
  tiers.push('int (PostgreSQL): unreachable');
}
console.log(
  `\n=== ${intTiers.map((t) => t.name).join(' and ')}, side by side at a lower priority (output follows) ===`,
);
const intRun = startTiers(intTiers, { nice: true });
// The late shard starts when a core frees: the integration tiers end, or the first shard does (CI
// 2,993 s on 2026-11-28: the first shard ended at 1,054 s and the integration tiers at 1,627 s,
// after which the late shard ran 289 s alone). One e2e runs at a time either way.
const lateRun = lateShard ? Promise.race([intRun, e2eRun]).then(() => startTiers([lateShard])) : Promise.resolve([]);
const [intResults, e2eResults, lateResults] = await Promise.all([intRun, e2eRun, lateRun]);
report(intResults);
report([...e2eResults, ...lateResults]);

if (failures.length > 0) {
  console.log(`\nfailed tests (${failures.length}):`);
  for (const f of failures.slice(0, 30)) console.log(`  ${f}`);
}
console.log('\n' + tiers.map((t) => `  ${t}`).join('\n'));
console.log(`  whole run: ${since(started)}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
