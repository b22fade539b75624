import { notificationListQuerySchema, notificationListSchema, notificationStatusSchema } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import { defineRoute } from '../../platform/route.js';
import type { NotificationsService } from './notifications.service.js';

/** The caller's own notifications: another account's id answers 404. */
export function notificationRoutes(app: FastifyInstance, notifications: NotificationsService): void {
  defineRoute(app, {
    method: 'GET',
    url: 'notifications',
    summary: 'The newest notifications of the caller (at most 5) and the unread count',
    auth: 'account',
    query: notificationListQuerySchema,
    response: notificationListSchema,
    handler: ({ account, query, request }) => notifications.list(account, query.limit, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'notifications/status',
    summary: 'Unread count and newest notification id, for polling (no patient data)',
    auth: 'account',
    response: notificationStatusSchema,
    handler: ({ account }) => notifications.status(account),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'notifications/read-all',
    summary: "Mark all of the caller's notifications read",
    auth: 'account',
    status: 204,
    handler: ({ account }) => notifications.markAllRead(account),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'notifications/:notificationId/read',
    summary: "Mark one of the caller's notifications read",
    auth: 'account',
    params: z.object({ notificationId: z.string().max(64) }),
    status: 204,
    handler: ({ account, params }) => notifications.markRead(account, params.notificationId),
  });
}
