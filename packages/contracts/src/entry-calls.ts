import { defineCall } from './call.js';
import { entryTokenQuerySchema, entryTokenSchema } from './entry.js';

/**
 * GET tokens (spec 001 §7): the exchange of a hospital system's signed entry for a session
 * (contracts entry.ts). Public: the signed payload is the credential. It is not on spec 001 §8's
 * list of tokenless paths, so the web calls it `anonymous` (no stored token goes with it).
 */
export const entryCalls = {
  token: defineCall({ method: 'GET', path: 'tokens', query: entryTokenQuerySchema, answer: entryTokenSchema }),
} as const;
