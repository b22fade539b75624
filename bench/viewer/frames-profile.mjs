#!/usr/bin/env node
// Where a WADO-RS frame's time goes: a 300-slice 512×512 CT stored into yyp (PGlite by default,
// BENCH_STORE=postgres), the server run under node --cpu-prof while the frames are fetched one by
// one over keep-alive (BENCH_ROUNDS times, DICOMweb with a bearer token and the viewer's signed
// path), then the profile summed by self time per function and per file.
//   npm run build && node bench/viewer/frames-profile.mjs
// Writes the .cpuprofile under /tmp (its path is printed) to open in Chrome DevTools.
import fs from 'node:fs';
import path from 'node:path';
import { generateCtFiles, stow } from '../lib/dicom-tools.mjs';
import { fetchFrames, firstStudyUid, frameUrls } from '../lib/frames.mjs';
import { startYyp } from '../lib/yyp.mjs';
import { makeTempDir, round, runBounded } from '../lib/util.mjs';
import { viewerFrameUrls } from './targets.mjs';

const SLICES = Number(process.env.BENCH_SLICES || 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);

/** Self time per function and per file of a .cpuprofile, busiest first. */
export function summarizeProfile(file, top = 30) {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = prof.timeDeltas;
  for (let i = 0; i < prof.samples.length; i++) {
    self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (dt[i] ?? 0));
  }
  const fnTotals = new Map();
  const fileTotals = new Map();
  let total = 0;
  for (const [id, us] of self) {
    const cf = byId.get(id).callFrame;
    const where = cf.url ? cf.url.replace(/^.*node_modules\//, '~/').replace(/^file:\/\/.*\/packages\//, '') : '';
    const fn = `${cf.functionName || '(anonymous)'} ${where}:${cf.lineNumber + 1}`;
    fnTotals.set(fn, (fnTotals.get(fn) ?? 0) + us);
    const f = where.startsWith('~/')
      ? where
          .split('/')
          .slice(0, where.startsWith('~/@') ? 3 : 2)
          .join('/')
      : where;
    fileTotals.set(f || cf.functionName, (fileTotals.get(f || cf.functionName) ?? 0) + us);
    total += us;
  }
  const sorted = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([k, us]) =>
          `${round(us / 1000)
            .toString()
            .padStart(8)} ms ${round((us / total) * 100)
            .toString()
            .padStart(5)}%  ${k}`,
      );
  return { totalMs: round(total / 1000), functions: sorted(fnTotals), files: sorted(fileTotals) };
}

async function main() {
  const profDir = makeTempDir('yyp-frames-profile-');
  const keep = fs.mkdtempSync('/tmp/yyp-frames-cpuprofile-');
  const store = process.env.BENCH_STORE === 'postgres' ? 'postgres' : 'pglite';
  const ingested = await startYyp({ store });
  const { files } = await generateCtFiles(SLICES, { perStudy: SLICES, prefix: 'frames-profile' });
  const stored = await stow(ingested, files, { batchSize: 50, concurrency: 2 });
  if (stored.stored !== SLICES) throw new Error(`stored ${stored.stored} of ${SLICES}`);
  // The profile covers the reads only: the same archive, started again under --cpu-prof.
  await ingested.kill();
  const target = await startYyp({
    store,
    restart: { dataDir: ingested.dataDir, dbUrl: ingested.dbUrl },
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`],
  });
  const auth = { authorization: `Bearer ${target.token}` };
  const study = await firstStudyUid(target.dicomWebBase, auth);
  const web = await frameUrls(target.dicomWebBase, study, auth);
  const viewer = await viewerFrameUrls(target, study);
  for (let r = 0; r < ROUNDS; r++) {
    const a = await fetchFrames(web, { headers: auth, minBytes: 512 * 512 * 2 });
    const b = await fetchFrames(viewer.urls, { headers: viewer.headers, minBytes: 512 * 512 * 2 });
    console.log(
      `round ${r + 1}: DICOMweb ${a.ms} ms (${a.msPerFrame} ms/frame), viewer path ${b.ms} ms (${b.msPerFrame} ms/frame)`,
    );
  }
  await target.kill();
  const [prof] = fs.readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile'));
  if (!prof) throw new Error('the server wrote no profile');
  const out = path.join(keep, prof);
  fs.copyFileSync(path.join(profDir, prof), out);
  const s = summarizeProfile(out);
  console.log(`profile ${out}: ${s.totalMs} ms sampled (start, sign-in and the frame reads)`);
  console.log('--- self time by file ---');
  console.log(s.files.join('\n'));
  console.log('--- self time by function ---');
  console.log(s.functions.join('\n'));
  await target.stop();
  await ingested.stop();
}

if (import.meta.url === `file://${process.argv[1]}`) await runBounded(main, 900);
