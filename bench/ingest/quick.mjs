// Dev loop (not the benchmark): yyp alone on one store, storescu ×1, ×4 and STOW-RS of N CT files.
// BENCH_STORE (postgres), BENCH_PATHS (storescu1,storescu4,stow), BENCH_NODE_ARGS (e.g. --cpu-prof).
import fs from 'node:fs';
import { generateCtFiles } from '../lib/dicom-tools.mjs';
import { cleanupAll } from '../lib/util.mjs';
import { INGEST_PATHS } from './scenarios.mjs';
import { startOrthancArchive } from './orthanc-only.mjs';
import { startYypArchive } from './yyp.mjs';

const N = Number(process.env.BENCH_N || 1000);
const store = process.env.BENCH_STORE || 'postgres'; // or orthanc
const paths = (process.env.BENCH_PATHS || 'storescu1,storescu4,stow').split(',');
const { files } = await generateCtFiles(N);
try {
  for (const p of paths) {
    const a =
      store === 'orthanc'
        ? await startOrthancArchive()
        : await startYypArchive({ store, nodeArgs: (process.env.BENCH_NODE_ARGS || '').split(' ').filter(Boolean) });
    try {
      const cpu = () => {
        const sys = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
        const me = a.target.pid
          ? fs.readFileSync(`/proc/${a.target.pid}/stat`, 'utf8').split(') ')[1].split(' ')
          : null;
        return {
          busy: sys[0] + sys[1] + sys[2] + sys[5] + sys[6],
          idle: sys[3] + sys[4],
          u: me ? Number(me[11]) : 0,
          s: me ? Number(me[12]) : 0,
        };
      };
      const procs = () => {
        const m = new Map();
        for (const d of fs.readdirSync('/proc')) {
          if (!/^\d+$/.test(d)) continue;
          try {
            const st = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
            const comm = st.slice(st.indexOf('(') + 1, st.lastIndexOf(')')).replace(/\/.*/, '');
            const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
            m.set(d, { comm, t: Number(f[11]) + Number(f[12]) });
          } catch {
            // the process ended while being read
          }
        }
        return m;
      };
      const p0 = procs();
      if (process.env.BENCH_SQL && a.target.dbUrl) {
        const { default: pg } = await import('pg');
        const client = new pg.Client({ connectionString: a.target.dbUrl });
        await client.connect();
        await client.query(process.env.BENCH_SQL);
        await client.end();
      }
      const c0 = cpu();
      const r = await INGEST_PATHS[p](a.target, files);
      const c1 = cpu();
      const p1 = procs();
      const byComm = new Map();
      for (const [pid, v] of p1) byComm.set(v.comm, (byComm.get(v.comm) ?? 0) + v.t - (p0.get(pid)?.t ?? 0));
      const per = (x) => ((x * 10) / N).toFixed(2); // clock ticks (10 ms) per instance, in ms
      console.log(
        '  by process ms/instance:',
        [...byComm]
          .filter((x) => x[1] > 0)
          .sort((x, y) => y[1] - x[1])
          .slice(0, 8)
          .map(([c, t]) => `${c} ${((t * 10) / N).toFixed(2)}`)
          .join(', '),
      );
      console.log(
        `  cpu ms/instance: machine busy ${per(c1.busy - c0.busy)} idle ${per(c1.idle - c0.idle)}; server user ${per(c1.u - c0.u)} sys ${per(c1.s - c0.s)}`,
      );
      console.log(p, r.perSecond, '/s', 'count', await a.count());
    } finally {
      await a.stop();
    }
  }
} finally {
  await cleanupAll();
}
