import crypto from 'node:crypto';
import { turnUsername, type IceServer } from '@yyp/contracts';

/**
 * The ICE servers a participant's browser is given (docs/video.md): STUN and TURN addresses from
 * the configuration (YYP_TURN_URLS) and, for TURN, coturn's time-limited REST-API credentials
 * (use-auth-secret with YYP_TURN_SECRET): username `<expiry seconds>:<accountId>`, credential
 * base64(HMAC-SHA1(secret, username)). With nothing configured the browsers use their host
 * candidates only, which is enough on one LAN or on loopback.
 */
export interface VideoIceConfig {
  /** stun:, turn: and turns: URLs */
  urls: string[];
  /** coturn's static-auth-secret; without it TURN URLs are left out (coturn would refuse them) */
  secret?: string | undefined;
}

export function turnCredential(secret: string, username: string): string {
  return crypto.createHmac('sha1', secret).update(username).digest('base64');
}

export function iceServersFor(config: VideoIceConfig | undefined, accountId: string, expiresAt: Date): IceServer[] {
  if (!config || config.urls.length === 0) return [];
  const stun = config.urls.filter((u) => /^stun:/i.test(u));
  const turn = config.urls.filter((u) => /^turns?:/i.test(u));
  const servers: IceServer[] = [];
  if (stun.length > 0) servers.push({ urls: stun });
  if (turn.length > 0 && config.secret) {
    const username = turnUsername(expiresAt, accountId);
    servers.push({ urls: turn, username, credential: turnCredential(config.secret, username) });
  }
  return servers;
}
