import { EXPIRY_DIALOG_SUPPRESSED_ROUTES } from '@yyp/contracts';
import { sessionStore, type LoginType } from './sessionStore';

/**
 * Public routes of spec 000 §2 beyond the ones that suppress the expiry dialog. A 401 on any of
 * them only clears the token (spec 001 §8 "On public pages nothing more happens").
 */
const OTHER_PUBLIC_ROUTES: readonly RegExp[] = [
  /^\/ss-login$/,
  /^\/401$/,
  /^\/404$/,
  /^\/go$/,
  /^\/reports\/s$/,
  /^\/learning\/[^/]+$/,
  /^\/mobileSignature$/,
  /^\/charge\/[^/]+$/,
  /^\/service-orders\/upload$/,
  /^\/attachments\/upload$/,
  /^\/web$/,
  /^\/web-report$/,
  /^\/viewer\/.+$/,
  /^\/exams\/[^/]+\/apply-report\/[^/]+$/,
];

function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function isExpiryDialogSuppressed(pathname: string): boolean {
  return EXPIRY_DIALOG_SUPPRESSED_ROUTES.includes(normalizePath(pathname));
}

/** /upload is the signed-in wizard, or with a token query the public page of an upload link. */
function isUploadLink(path: string, search: string): boolean {
  return path === '/upload' && new URLSearchParams(search).has('token');
}

export function isPublicPath(pathname: string, search = ''): boolean {
  const path = normalizePath(pathname);
  return (
    isExpiryDialogSuppressed(path) ||
    OTHER_PUBLIC_ROUTES.some((pattern) => pattern.test(path)) ||
    isUploadLink(path, search)
  );
}

export type ExpiryAction = 'none' | 'redirectToLogin' | 'askPassword' | 'goToLogin';

export interface ExpiryContext {
  pathname: string;
  /** The query of the page, for routes whose query makes them public (/upload?token). */
  search?: string;
  dialogOpen: boolean;
  username: string | null;
  loginType: LoginType | null;
}

/** The decision table of spec 001 §8 for a 401 TokenExpiredError/JsonWebTokenError. */
export function decideExpiryAction(context: ExpiryContext): ExpiryAction {
  if (isPublicPath(context.pathname, context.search)) {
    return 'none';
  }
  if (context.dialogOpen) {
    return 'none';
  }
  if (!context.username) {
    return 'redirectToLogin';
  }
  return context.loginType === 'normal' ? 'askPassword' : 'goToLogin';
}

export const LOGIN_PATH_AFTER_LOST_SESSION = '/login?redirect=/studies';

/** How the session layer reaches the router; the root layout binds the real one. */
export interface ExpiryEnvironment {
  pathname(): string;
  search?(): string;
  navigate(to: string): void;
}

const browserEnvironment: ExpiryEnvironment = {
  pathname: () => window.location.pathname,
  search: () => window.location.search,
  navigate: (to) => window.location.assign(to),
};

let environment: ExpiryEnvironment = browserEnvironment;

export function bindExpiryEnvironment(next: ExpiryEnvironment): () => void {
  environment = next;
  return () => {
    if (environment === next) {
      environment = browserEnvironment;
    }
  };
}

/** Called by the API client when the server rejected the token. */
export function handleTokenRejected(): ExpiryAction {
  const { session, expiryDialogOpen } = sessionStore.getState();
  const action = decideExpiryAction({
    pathname: environment.pathname(),
    search: environment.search?.() ?? '',
    dialogOpen: expiryDialogOpen,
    username: session?.username ?? null,
    loginType: session?.loginType ?? null,
  });
  switch (action) {
    case 'askPassword':
      sessionStore.clearToken({ keepUser: true, openExpiryDialog: true });
      break;
    case 'redirectToLogin':
      sessionStore.clearToken({ keepUser: false });
      environment.navigate(LOGIN_PATH_AFTER_LOST_SESSION);
      break;
    case 'goToLogin':
      sessionStore.clearToken({ keepUser: false });
      environment.navigate('/login');
      break;
    case 'none':
      sessionStore.clearToken({ keepUser: true });
      break;
  }
  return action;
}
