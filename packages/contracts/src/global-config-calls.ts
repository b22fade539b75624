import { defineCall } from './call.js';
import {
  globalConfigAnswerSchema,
  globalConfigQuerySchema,
  globalConfigUpdateSchema,
  globalConfigValuesSchema,
} from './global-config.js';

/** The platform's settings by key (contracts global-config.ts; server modules/global-configs). */
export const globalConfigCalls = {
  /** any signed-in user */
  query: defineCall({
    method: 'GET',
    path: 'global-configs/query',
    query: globalConfigQuerySchema,
    answer: globalConfigAnswerSchema,
  }),
  /** platform administrators: answers every key after the change */
  update: defineCall({
    method: 'PUT',
    path: 'global-configs',
    body: globalConfigUpdateSchema,
    answer: globalConfigValuesSchema,
  }),
} as const;
