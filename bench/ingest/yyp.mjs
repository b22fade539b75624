// The yyp side of the ingest benchmark: an archive factory for scenarios.mjs, like
// startOrthancArchive in orthanc-only.mjs. Each call starts a fresh, empty yyp server.
import { startYyp, yypInstanceCount } from '../lib/yyp.mjs';

/**
 * @param {{ store: 'pglite' | 'postgres' }} opts
 * @returns {Promise<import('./scenarios.mjs').Archive>}  stop() kills the server, drops the
 *   database (PostgreSQL) and removes the data dir.
 */
export async function startYypArchive({ store, ...opts }) {
  const yyp = await startYyp({ store, ...opts });
  return { target: yyp, count: () => yypInstanceCount(yyp), stop: yyp.stop };
}
