import type { FastifyInstance } from 'fastify';
import type { MoneyStatistics } from './statistics-money.service.js';

/** statistics/billings (GET, POST) and billings/export-excel. */
export function moneyRoutes(_app: FastifyInstance, _money: MoneyStatistics): void {}
