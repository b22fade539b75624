import { ACCESS_TOKEN_KEY, CHARGE_TOKEN_KEY, loginTypes, type TokenInfo } from '@yyp/contracts';

export type LoginType = TokenInfo['loginType'];

/**
 * What local storage keeps under ACCESS_TOKEN_KEY: the token info of the last sign-in plus the
 * username. When the server rejects the token only accessToken/expires are dropped, so the
 * login-expired dialog can still ask for "the password of <username>" (spec 001 §8).
 */
export interface StoredSession {
  username: string;
  loginType: LoginType;
  accessToken?: string;
  expires?: number;
}

export interface SessionState {
  session: StoredSession | null;
  /** The login-expired dialog is showing; a second 401 must not open another one. */
  expiryDialogOpen: boolean;
  /** Set when the inactivity check signed the user out; drives the notice on the login page. */
  inactiveLogout: { loginType: LoginType } | null;
}

type Listener = () => void;

function isLoginType(value: unknown): value is LoginType {
  return typeof value === 'string' && (loginTypes as readonly string[]).includes(value);
}

function readStoredSession(): StoredSession | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(ACCESS_TOKEN_KEY);
  } catch {
    return null;
  }
  if (!raw) {
    return null;
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) {
      return null;
    }
    const record = parsed as Record<string, unknown>;
    if (typeof record.username !== 'string' || !isLoginType(record.loginType)) {
      return null;
    }
    const session: StoredSession = { username: record.username, loginType: record.loginType };
    if (typeof record.accessToken === 'string' && typeof record.expires === 'number') {
      session.accessToken = record.accessToken;
      session.expires = record.expires;
    }
    return session;
  } catch {
    return null;
  }
}

function writeStoredSession(session: StoredSession | null): void {
  try {
    if (session) {
      localStorage.setItem(ACCESS_TOKEN_KEY, JSON.stringify(session));
    } else {
      localStorage.removeItem(ACCESS_TOKEN_KEY);
    }
  } catch {
    // Storage may be unavailable (private mode quota); the in-memory state still works.
  }
}

let state: SessionState = { session: readStoredSession(), expiryDialogOpen: false, inactiveLogout: null };
const listeners = new Set<Listener>();

function setState(patch: Partial<SessionState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) {
    listener();
  }
}

/**
 * The one owner of the stored session. React reads it through useSyncExternalStore
 * (useSessionState); the API client reads it synchronously for every call.
 */
export const sessionStore = {
  getState(): SessionState {
    return state;
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Read from local storage on every call, as spec 001 §8 describes, not from memory. */
  getAccessToken(): string | null {
    return readStoredSession()?.accessToken ?? null;
  },
  signIn(username: string, token: TokenInfo): void {
    const session: StoredSession = {
      username,
      loginType: token.loginType,
      accessToken: token.accessToken,
      expires: token.expires,
    };
    writeStoredSession(session);
    setState({ session, expiryDialogOpen: false, inactiveLogout: null });
  },
  /** The server rejected the token: forget it but remember who was signed in. */
  clearToken(options: { keepUser: boolean; openExpiryDialog?: boolean }): void {
    const previous = state.session;
    const session =
      options.keepUser && previous ? { username: previous.username, loginType: previous.loginType } : null;
    writeStoredSession(session);
    setState({ session, expiryDialogOpen: state.expiryDialogOpen || Boolean(options.openExpiryDialog) });
  },
  closeExpiryDialog(): void {
    if (state.expiryDialogOpen) {
      setState({ expiryDialogOpen: false });
    }
  },
  /** Logout clears all stored state (spec 000 §3); the query cache is cleared by the caller. */
  signOut(reason: 'user' | 'inactive' = 'user'): void {
    const loginType = state.session?.loginType ?? 'normal';
    writeStoredSession(null);
    try {
      sessionStorage.removeItem(CHARGE_TOKEN_KEY);
    } catch {
      // ignore unavailable storage
    }
    setState({
      session: null,
      expiryDialogOpen: false,
      inactiveLogout: reason === 'inactive' ? { loginType } : null,
    });
  },
  dismissInactiveLogout(): void {
    if (state.inactiveLogout) {
      setState({ inactiveLogout: null });
    }
  },
  /** Re-read local storage: another tab signed in or out, or a test changed the storage. */
  reload(): void {
    setState({ session: readStoredSession() });
  },
};

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === ACCESS_TOKEN_KEY) {
      sessionStore.reload();
    }
  });
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
