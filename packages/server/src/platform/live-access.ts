import { LIVE_SCHEME_PATTERN, liveTopicPrefix } from '@yyp/contracts';
import type { AccountRow } from '../db/schema.js';
import type { CallerScope } from './access.js';
import type { Authenticate } from './auth.js';
import { AppError, errors } from './errors.js';

/**
 * Who is on the other end of a live socket or a token-authenticated call: an account signed in
 * with its bearer token, or the holder of a token of a scheme a module registered (the calling
 * module's 'Screen' tokens: a waiting-room TV that may read one organization's queue).
 */
export type LivePrincipal =
  | { kind: 'account'; account: AccountRow; scope: CallerScope; sessionId: string }
  | {
      kind: 'token';
      scheme: string;
      /** what the token names (e.g. the screen token's id) */
      subject: string;
      /** what the token allows, as its verifier says (e.g. { bucketId }) */
      claims: Readonly<Record<string, string>>;
    };

/** A scheme's verifier: the token's subject and claims, or null when it is unknown, expired or revoked. */
export type TokenVerifier = (token: string) => Promise<{ subject: string; claims: Record<string, string> } | null>;

/** May this principal receive the topic `<prefix>:<rest>`? Given the rest. */
export type TopicAuthorizer = (principal: LivePrincipal, rest: string) => Promise<boolean>;

/**
 * May this principal publish `event` on the topic `<prefix>:<rest>`? The answer is the sender's
 * stamp the subscribers receive as `from` (the module names the principal; a client's own word is
 * never taken), or null to refuse. The module may also check the event's shape here.
 */
export type PublishAuthorizer = (
  principal: LivePrincipal,
  rest: string,
  event: unknown,
) => Promise<Record<string, string> | null>;

/** The account scheme: a bearer token checked by the accounts module (platform/auth.ts Authenticate). */
export const ACCOUNT_SCHEME = 'Bearer';

/**
 * The registry of topic families and token schemes. platform/ imports no module, so each module
 * registers what it owns here (app.ts hands it the registry): `topicAuthorizer('calling', …)`,
 * `tokenVerifier('Screen', …)`. A topic whose family nobody registered is refused to everyone.
 */
export class LiveAccess {
  private readonly topics = new Map<string, TopicAuthorizer>();
  private readonly schemes = new Map<string, TokenVerifier>();
  private readonly publishers = new Map<string, PublishAuthorizer>();

  constructor(private readonly authenticateAccount: Authenticate) {}

  topicAuthorizer(prefix: string, authorize: TopicAuthorizer): void {
    if (!/^[a-z][a-z0-9-]{0,31}$/.test(prefix)) throw new Error(`bad live topic prefix ${JSON.stringify(prefix)}`);
    if (this.topics.has(prefix)) throw new Error(`live topic prefix ${prefix} registered twice`);
    this.topics.set(prefix, authorize);
  }

  /** Lets clients publish on a family (its topic authorizer still decides who may subscribe). */
  publishAuthorizer(prefix: string, authorize: PublishAuthorizer): void {
    if (!this.topics.has(prefix)) throw new Error(`live topic prefix ${prefix} has no topic authorizer`);
    if (this.publishers.has(prefix)) throw new Error(`live publish authorizer for ${prefix} registered twice`);
    this.publishers.set(prefix, authorize);
  }

  tokenVerifier(scheme: string, verify: TokenVerifier): void {
    if (!LIVE_SCHEME_PATTERN.test(scheme) || scheme.toLowerCase() === ACCOUNT_SCHEME.toLowerCase()) {
      throw new Error(`bad token scheme ${JSON.stringify(scheme)}`);
    }
    const key = scheme.toLowerCase();
    if (this.schemes.has(key)) throw new Error(`token scheme ${scheme} registered twice`);
    this.schemes.set(key, verify);
  }

  /** The principal for a token of a scheme (default: an account's bearer token); null when refused. */
  async authenticate(token: string, scheme: string = ACCOUNT_SCHEME): Promise<LivePrincipal | null> {
    if (!token) return null;
    if (scheme.toLowerCase() === ACCOUNT_SCHEME.toLowerCase()) {
      try {
        const found = await this.authenticateAccount(token);
        return { kind: 'account', account: found.account, scope: found.scope, sessionId: found.sessionId };
      } catch (err) {
        if (err instanceof AppError) return null;
        throw err;
      }
    }
    const verify = this.schemes.get(scheme.toLowerCase());
    if (!verify) return null;
    const found = await verify(token);
    if (!found) return null;
    return { kind: 'token', scheme, subject: found.subject, claims: Object.freeze({ ...found.claims }) };
  }

  /**
   * The principal of an HTTP call that accepts accounts and registered token schemes (e.g.
   * text-to-speech for a screen): 401 Unauthenticated without a header, the account's own 401
   * (TokenExpiredError, JsonWebTokenError) for a refused bearer token, JsonWebTokenError for a
   * refused token of another scheme.
   */
  async requirePrincipal(header: string | undefined): Promise<LivePrincipal> {
    if (!header) throw errors.unauthenticated();
    const match = /^([A-Za-z][A-Za-z0-9-]{0,31})\s+(\S+)\s*$/.exec(header);
    if (!match) throw errors.badToken();
    const [, scheme, token] = match as unknown as [string, string, string];
    if (scheme.toLowerCase() === ACCOUNT_SCHEME.toLowerCase()) {
      const found = await this.authenticateAccount(token);
      return { kind: 'account', account: found.account, scope: found.scope, sessionId: found.sessionId };
    }
    const principal = await this.authenticate(token, scheme);
    if (!principal) throw errors.badToken();
    return principal;
  }

  /** May the principal receive the topic? False for a malformed topic or an unregistered family. */
  async authorize(principal: LivePrincipal, topic: string): Promise<boolean> {
    const parts = liveTopicPrefix(topic);
    if (!parts) return false;
    const authorize = this.topics.get(parts.prefix);
    if (!authorize) return false;
    return authorize(principal, parts.rest);
  }

  /**
   * The sender's stamp when the principal may publish this event on the topic; null for a
   * malformed topic, a family without a publish authorizer, or a refusal.
   */
  async authorizePublish(
    principal: LivePrincipal,
    topic: string,
    event: unknown,
  ): Promise<Record<string, string> | null> {
    const parts = liveTopicPrefix(topic);
    if (!parts) return null;
    const authorize = this.publishers.get(parts.prefix);
    if (!authorize) return null;
    return authorize(principal, parts.rest, event);
  }
}
