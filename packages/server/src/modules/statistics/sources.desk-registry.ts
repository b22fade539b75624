import type { StatKind } from '@yyp/contracts';
import type { StatSource } from './stat-source.js';
import { arriverStats, registrarStats } from './sources.desk-rollup.js';
import { consulStats } from './stat-consul-rollup.store.js';
import { remoteReportTable } from './sources.remote.js';
import { groupPaymentStats } from './stat-money.store.js';
import { refreshRollups } from './stat-rollup.store.js';

/**
 * The statistics of the front desk (registrar, arriver), of report orders (remote-report), of money
 * (group-payment: CNY unless the query names USD) and of consultations (consul); the rollups they
 * read are recounted for the organizations' marked days first.
 */
export const deskRegistrySources: Partial<Record<StatKind, StatSource>> = {
  registrar: registrarStats,
  arriver: arriverStats,
  'remote-report': remoteReportTable,
  'group-payment': async (db, req) => {
    await refreshRollups(db, req.bucketIds);
    return groupPaymentStats(db, req, req.currency ?? 'CNY');
  },
  consul: async (db, req) => {
    await refreshRollups(db, req.bucketIds);
    return consulStats(db, req);
  },
};
