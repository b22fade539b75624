import {
  ssoCalls,
  wxLoginCalls,
  type WxBindRequest,
  type WxCallbackAnswer,
  type WxLink,
  type WxRegisterRequest,
  type WxSignedIn,
} from '@yyp/contracts';
import { callApi } from './call';

/**
 * WeChat website login (issue 27; contracts wxLoginCalls). accounts/auth and auth/wx/* are on spec
 * 001 §8's tokenless list; accounts/me/wx carries the session's token.
 */

/** Starts a WeChat login: the QR-code page to send the browser to. */
export async function startWxLogin(redirect?: string): Promise<string> {
  const answer = await callApi(ssoCalls.auth, { query: { type: 'wx', ...(redirect ? { redirect } : {}) } });
  if (!answer.url) throw new Error('no WeChat login url');
  return answer.url;
}

/** /loginCallback?source=wx: WeChat's code and the state (once). */
export function finishWxLogin(query: { code: string; state: string }): Promise<WxCallbackAnswer> {
  return callApi(wxLoginCalls.callback, { query: { ...query, source: 'wx' } });
}

export function bindWx(body: WxBindRequest): Promise<WxSignedIn> {
  return callApi(wxLoginCalls.bind, { body });
}

export function registerWx(body: WxRegisterRequest): Promise<WxSignedIn> {
  return callApi(wxLoginCalls.register, { body });
}

export function fetchWxLink(signal?: AbortSignal): Promise<WxLink> {
  return callApi(wxLoginCalls.link, {}, { signal });
}

export function unlinkWx(): Promise<void> {
  return callApi(wxLoginCalls.unlink, {});
}
