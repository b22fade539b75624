import { oidcProviderCalls, type OidcDecision, type OidcInteraction } from '@yyp/contracts';
import { callApi } from './call';

/** A viewer's sign-in through yyp (contracts oidcProviderCalls): which viewer asks. */
export function fetchOidcInteraction(interaction: string, signal?: AbortSignal): Promise<OidcInteraction> {
  return callApi(oidcProviderCalls.interaction, { query: { interaction } }, { signal });
}

/** The user's answer; where the browser goes next (the viewer, with a code or an error). */
export async function decideOidcInteraction(body: OidcDecision): Promise<string> {
  return (await callApi(oidcProviderCalls.decide, { body })).redirectTo;
}
