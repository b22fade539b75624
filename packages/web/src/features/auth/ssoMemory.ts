/**
 * The group whose provider signed this browser in last (single sign-on): the login page asks GET
 * login-url with it and offers that provider first. Not a secret; cleared by nothing but a new SSO sign-in.
 */
const KEY = 'yyp.ssoGroup';

export function rememberSsoGroup(groupId: string): void {
  try {
    localStorage.setItem(KEY, groupId);
  } catch {
    // storage unavailable (private mode): the login page simply lists the providers
  }
}

export function lastSsoGroup(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}
