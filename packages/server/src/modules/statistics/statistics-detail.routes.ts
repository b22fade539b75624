import type { FastifyInstance } from 'fastify';
import type { DetailStatistics } from './statistics-detail.service.js';

/** report-detail (+ export), overview, buckets/allowed-statistics, buckets/allowed, groups/{id}/quality. */
export function detailRoutes(_app: FastifyInstance, _detail: DetailStatistics): void {}
