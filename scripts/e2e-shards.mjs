// Splits the e2e files into shards of about equal running time, each run by its own vitest process
// with its own server (e2e/globalSetup.ts), so two shards keep both cores busy where one Chromium and
// one server left one idle. The weights are the seconds each file took in a measured run
// (e2e/durations.json, refreshed with `node scripts/e2e-shards.mjs --record <vitest json report>...`);
// a file not listed there weighs as much as the median file.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const e2eDir = path.join(root, 'e2e');
const durationsFile = path.join(e2eDir, 'durations.json');

/** How many shards `npm test` runs: E2E_SHARDS, one by default (see scripts/test-all.mjs). */
export function e2eShardCount() {
  return Number(process.env.E2E_SHARDS || 1);
}

export function e2eFiles() {
  return fs
    .readdirSync(e2eDir)
    .filter((f) => f.endsWith('.e2e.ts'))
    .sort();
}

function readDurations() {
  try {
    return JSON.parse(fs.readFileSync(durationsFile, 'utf8'));
  } catch {
    return {};
  }
}

/** The files with their recorded seconds (the median for a file not recorded), longest first. */
function weigh(files, durations) {
  const known = files.map((f) => durations[f]).filter((s) => typeof s === 'number');
  const sorted = [...known].sort((a, b) => a - b);
  const fallback = sorted.length ? sorted[Math.floor(sorted.length / 2)] : 30;
  return files
    .map((f) => ({ file: f, seconds: typeof durations[f] === 'number' ? durations[f] : fallback }))
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
}

/**
 * The files in `count` shards, longest first onto the lightest shard (LPT): each shard is a list of
 * absolute paths (an absolute path matches only its own file as a vitest filter).
 */
export function e2eShards(count, files = e2eFiles(), durations = readDurations()) {
  const weighted = weigh(files, durations);
  const shards = Array.from({ length: Math.max(1, count) }, () => ({ seconds: 0, files: [] }));
  for (const w of weighted) {
    const lightest = shards.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    lightest.seconds += w.seconds;
    lightest.files.push(path.join(e2eDir, w.file));
  }
  return shards.filter((s) => s.files.length > 0);
}

/**
 * The files in shards of given shares of the running time (e.g. [0.75, 0.25]): longest first onto
 * the shard furthest below its share. `npm test` starts the second shard late, when the integration
 * tiers have ended and left their core (scripts/test-all.mjs), so it gets the smaller share.
 */
export function e2eSharedShards(shares, files = e2eFiles(), durations = readDurations()) {
  const weighted = weigh(files, durations);
  const shards = shares.map((share) => ({ share, seconds: 0, files: [] }));
  for (const w of weighted) {
    const behind = shards.reduce((a, b) =>
      (b.seconds + w.seconds) / b.share < (a.seconds + w.seconds) / a.share ? b : a,
    );
    behind.seconds += w.seconds;
    behind.files.push(path.join(e2eDir, w.file));
  }
  return shards.filter((s) => s.files.length > 0);
}

/** Each file's seconds (first test's start to last test's end) from vitest JSON reports. */
function record(reports) {
  const durations = readDurations();
  for (const report of reports) {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    for (const t of r.testResults ?? []) {
      const file = path.basename(t.name);
      if (!file.endsWith('.e2e.ts') || !t.startTime || !t.endTime) continue;
      durations[file] = Math.round((t.endTime - t.startTime) / 1000);
    }
  }
  const ordered = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
  fs.writeFileSync(durationsFile, JSON.stringify(ordered, null, 2) + '\n');
  return ordered;
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const args = process.argv.slice(2);
  if (args[0] === '--record') {
    const d = record(args.slice(1));
    console.log(`${Object.keys(d).length} files recorded in ${path.relative(root, durationsFile)}`);
  }
  for (const [i, s] of e2eShards(e2eShardCount()).entries()) {
    console.log(`shard ${i + 1}: ${s.files.length} files, about ${s.seconds} s`);
  }
}
