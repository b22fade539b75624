// Dev loop (not the benchmark): yyp alone on one store, storescu ×1, ×4 and STOW-RS of N CT files.
// BENCH_STORE (postgres), BENCH_PATHS (storescu1,storescu4,stow), BENCH_NODE_ARGS (e.g. --cpu-prof),
// BENCH_WARMUP (0: instances sent untimed first).
import { generateCtFiles } from '../lib/dicom-tools.mjs';
import { cleanupAll, cpuByProcess, cpuByProcessSince, deferTempDirRemoval, machineCpu } from '../lib/util.mjs';
import { INGEST_PATHS } from './scenarios.mjs';
import { startOrthancArchive } from './orthanc-only.mjs';
import { startYypArchive } from './yyp.mjs';

const N = Number(process.env.BENCH_N || 1000);
deferTempDirRemoval();
const store = process.env.BENCH_STORE || 'postgres'; // or orthanc
const paths = (process.env.BENCH_PATHS || 'storescu1,storescu4,stow').split(',');
const WARMUP = Number(process.env.BENCH_WARMUP || 0);
const { files } = await generateCtFiles(N);
const warmup = WARMUP ? (await generateCtFiles(WARMUP, { prefix: 'warm' })).files : [];
try {
  for (const p of paths) {
    const a =
      store === 'orthanc'
        ? await startOrthancArchive()
        : await startYypArchive({ store, nodeArgs: (process.env.BENCH_NODE_ARGS || '').split(' ').filter(Boolean) });
    try {
      if (warmup.length) await INGEST_PATHS[p](a.target, warmup);
      const p0 = cpuByProcess();
      if (process.env.BENCH_SQL && a.target.dbUrl) {
        const { default: pg } = await import('pg');
        const client = new pg.Client({ connectionString: a.target.dbUrl });
        await client.connect();
        await client.query(process.env.BENCH_SQL);
        await client.end();
      }
      const c0 = machineCpu();
      const r = await INGEST_PATHS[p](a.target, files);
      const c1 = machineCpu();
      const { byComm, byPid } = cpuByProcessSince(p0, a.target.pid ? [a.target.pid] : []);
      const server = byPid[a.target.pid] ?? { user: 0, sys: 0 };
      const per = (ms) => (ms / N).toFixed(2);
      console.log(
        '  by process ms/instance:',
        byComm
          .slice(0, 8)
          .map(([c, ms]) => `${c} ${(ms / N).toFixed(2)}`)
          .join(', '),
      );
      console.log(
        `  cpu ms/instance: machine busy ${per(c1.busy - c0.busy)} idle ${per(c1.idle - c0.idle)}; server user ${per(server.user)} sys ${per(server.sys)}`,
      );
      console.log(p, r.perSecond, '/s', 'count', await a.count());
    } finally {
      await a.stop();
    }
  }
} finally {
  await cleanupAll();
}
