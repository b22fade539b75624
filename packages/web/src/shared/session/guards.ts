import { isSessionValid } from '@yyp/contracts';
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { nowSeconds, sessionStore } from '../../api/sessionStore';

export const DEFAULT_LANDING = '/studies';

/** /login?redirect=<target>, the way every guarded route sends a signed-out visitor away. */
export function loginRedirectPath(target: string): string {
  return `/login?redirect=${encodeURIComponent(target)}`;
}

/**
 * Only same-site paths are accepted as a redirect target, so a crafted link cannot send the user
 * to another site after login.
 */
export function safeRedirectTarget(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) {
    return DEFAULT_LANDING;
  }
  return raw;
}

export function hasValidSession(): boolean {
  return isSessionValid(sessionStore.getState().session, nowSeconds());
}

/**
 * Loader of the signed-in layout: runs on every navigation into a route that needs login. While the
 * login-expired dialog is open the page stays, the dialog restores the session in place.
 */
export function requireSession({ request }: LoaderFunctionArgs): null {
  if (hasValidSession() || sessionStore.getState().expiryDialogOpen) {
    return null;
  }
  const url = new URL(request.url);
  throw redirect(loginRedirectPath(url.pathname + url.search));
}

/**
 * Loader of /upload: with a token query it is the public page of an upload link (spec 000 §2
 * "/upload (query token)"), even for a signed-in user; without one it needs login.
 */
export function requireSessionUnlessUploadLink(args: LoaderFunctionArgs): null {
  if (new URL(args.request.url).searchParams.has('token')) {
    return null;
  }
  return requireSession(args);
}
