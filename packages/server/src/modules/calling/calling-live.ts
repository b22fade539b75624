import { CALLING_ACTIONS, type QueueEvent } from '@yyp/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { actionsInBucket, groupsWithFlagOff } from '../../platform/access.js';
import type { Db } from '../../platform/db.js';
import { verifyScreenToken } from './screen-tokens.store.js';

/**
 * The queue's live events (topic `queue:<bucketId>`, contracts queueTopic and queueEventSchema):
 * published after every change through the platform's live bus (platform/live.ts), which app.ts
 * hands in. An event is a hint: a publish that fails is logged and the change stands (screens
 * also read again after a gap).
 */
export type QueuePublisher = (topic: string, event: QueueEvent) => Promise<void>;

/** What the calling module needs of the live bus. */
export interface LivePublish {
  publish(topic: string, event: unknown): Promise<void>;
}

export function queuePublisher(bus: LivePublish | undefined, log?: FastifyBaseLogger): QueuePublisher {
  return async (topic, event) => {
    if (!bus) return;
    try {
      await bus.publish(topic, event);
    } catch (err) {
      log?.error({ err, topic }, 'queue event not published');
    }
  };
}

/** Who asks for a live topic (platform/live-access.ts LivePrincipal, as far as calling reads it). */
export type QueuePrincipal =
  | { kind: 'account'; account: { id: string } }
  | { kind: 'token'; scheme: string; claims: Readonly<Record<string, string>> };

/** The scheme of a waiting-room screen's token (`Authorization: Screen <token>`). */
export const SCREEN_SCHEME = 'Screen';

/**
 * The live side of calling, for app.ts to register with the live socket's access
 * (`topicAuthorizer('queue', …)`, `tokenVerifier('Screen', …)`): an account may follow the queue
 * of an organization where it calls or manages the queue (its group keeping calling on); a screen
 * token only its own organization's.
 */
export function callingLive(db: Db) {
  return {
    topicPrefix: 'queue',
    scheme: SCREEN_SCHEME,
    async verifyScreen(token: string): Promise<{ subject: string; claims: Record<string, string> } | null> {
      const found = await verifyScreenToken(db, token);
      return found ? { subject: found.tokenId, claims: { bucketId: found.bucketId } } : null;
    },
    async authorizeQueueTopic(principal: QueuePrincipal, bucketId: string): Promise<boolean> {
      if (principal.kind === 'token') {
        return principal.scheme.toLowerCase() === SCREEN_SCHEME.toLowerCase() && principal.claims.bucketId === bucketId;
      }
      const found = await actionsInBucket(db, principal.account, bucketId);
      if (!found || !CALLING_ACTIONS.some((a) => found.actions.has(a))) return false;
      return (await groupsWithFlagOff(db, [found.bucket.groupId], 'enableCalling')).size === 0;
    },
  };
}
