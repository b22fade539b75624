import type { StatKind } from '@yyp/contracts';
import type { StatSource } from './stat-source.js';
import { deskRegistrySources } from './sources.desk-registry.js';
import { qualitySources } from './sources.quality.js';

/** The statistics counted from the front desk, orders, money, consultations and quality grades. */
export const deskSources: Partial<Record<StatKind, StatSource>> = { ...deskRegistrySources, ...qualitySources };
