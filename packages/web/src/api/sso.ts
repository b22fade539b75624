import {
  ssoCalls,
  type AuthAnswer,
  type LoginUrl,
  type SsoLinks,
  type SsoProviderAnswer,
  type SsoProviderInput,
  type SsoStatusRow,
  type SsoTokenInfo,
} from '@yyp/contracts';
import { callApi } from './call';

/**
 * Single sign-on (issue 27; contracts ssoCalls). accounts/auth and auth/token are on spec 001 §8's
 * tokenless list; login-url is public and asked without the stored token (`anonymous`).
 */

/** What the login page offers: the enabled providers ("Sign in with …") and whether WeChat login is configured. */
export function fetchLoginOptions(signal?: AbortSignal): Promise<Pick<AuthAnswer, 'providers' | 'wx'>> {
  return callApi(ssoCalls.auth, { query: { type: 'sso' } }, { signal }).then((a) => ({
    providers: a.providers,
    wx: a.wx ?? false,
  }));
}

/** Starts a sign-in at the group's provider: the address to send the browser to. */
export async function startSso(groupId: string, redirect?: string): Promise<string> {
  const answer = await callApi(ssoCalls.auth, { query: { type: 'sso', groupId, ...(redirect ? { redirect } : {}) } });
  if (!answer.url) throw new Error('no authorization url');
  return answer.url;
}

/** /loginCallback: the provider's code and state for a session (once). */
export function finishSso(query: { code: string; state: string; iss?: string }): Promise<SsoTokenInfo> {
  return callApi(ssoCalls.token, { query });
}

/** Where a signed-out SSO user of the group signs in again; null on any failure (spec 001 §8). */
export function fetchLoginUrl(groupId: string): Promise<LoginUrl['url']> {
  return callApi(ssoCalls.loginUrl, { query: { groupId } }, { anonymous: true })
    .then((a) => a.url)
    .catch(() => null);
}

export function fetchGroupSso(groupId: string, signal?: AbortSignal): Promise<SsoProviderAnswer> {
  return callApi(ssoCalls.provider, { params: { groupId } }, { signal });
}

export function saveGroupSso(groupId: string, body: SsoProviderInput): Promise<SsoProviderAnswer> {
  return callApi(ssoCalls.saveProvider, { params: { groupId }, body });
}

export function removeGroupSso(groupId: string): Promise<void> {
  return callApi(ssoCalls.removeProvider, { params: { groupId } });
}

export function fetchSsoStatus(signal?: AbortSignal): Promise<SsoStatusRow[]> {
  return callApi(ssoCalls.status, {}, { signal });
}

/** GET accounts/me/sso: the caller's links to its groups' single sign-on and those it may link. */
export function fetchSsoLinks(signal?: AbortSignal): Promise<SsoLinks> {
  return callApi(ssoCalls.links, {}, { signal });
}

/** POST accounts/me/sso/{groupId}/link: where to send the browser to link the identity there. */
export async function startSsoLink(groupId: string): Promise<string> {
  const answer = await callApi(ssoCalls.startLink, { params: { groupId } });
  if (!answer.url) throw new Error('no authorization url');
  return answer.url;
}

/** DELETE accounts/me/sso/{groupId}. */
export function unlinkSso(groupId: string): Promise<void> {
  return callApi(ssoCalls.unlink, { params: { groupId } });
}
