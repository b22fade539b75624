import { entryCalls, type EntryToken, type EntryType } from '@yyp/contracts';
import { callApi } from './call';

/**
 * GET tokens: a hospital system's signed entry (the t of /ss-login, the data of /go) for a session.
 * tokens is not on spec 001 §8's tokenless list, so the call says `anonymous`: no stored token goes with it.
 */
export function exchangeEntry(signature: string, type: EntryType, source?: string): Promise<EntryToken> {
  return callApi(entryCalls.token, { query: { signature, type, ...(source ? { source } : {}) } }, { anonymous: true });
}
