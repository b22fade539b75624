import type { StatKind } from '@yyp/contracts';
import type { StatSource } from './stat-source.js';

/** The statistics counted from exams and reports (served by the daily rollups). */
export const reportSources: Partial<Record<StatKind, StatSource>> = {};
