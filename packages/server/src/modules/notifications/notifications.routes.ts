import { myNotificationSettingsCalls, notificationCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { NotificationsService } from './notifications.service.js';

/** The caller's own notifications (contracts notificationCalls): another account's id answers 404. */
export function notificationRoutes(app: FastifyInstance, notifications: NotificationsService): void {
  defineCallRoute(app, notificationCalls.list, {
    summary: 'The newest notifications of the caller (at most 5) and the unread count',
    auth: 'account',
    handler: ({ account, query, request }) => notifications.list(account, query.limit, auditContext(request)),
  });
  defineCallRoute(app, notificationCalls.status, {
    summary: 'Unread count and newest notification id, for polling (no patient data)',
    auth: 'account',
    handler: ({ account }) => notifications.status(account),
  });
  defineCallRoute(app, notificationCalls.readAll, {
    summary: "Mark all of the caller's notifications read",
    auth: 'account',
    handler: ({ account }) => notifications.markAllRead(account),
  });
  defineCallRoute(app, notificationCalls.read, {
    summary: "Mark one of the caller's notifications read",
    auth: 'account',
    handler: ({ account, params }) => notifications.markRead(account, params.notificationId),
  });
  defineCallRoute(app, myNotificationSettingsCalls.get, {
    summary: "The caller's notification settings: the kinds that do not toast, and whether a toast chimes",
    auth: 'account',
    handler: ({ account }) => notifications.settings(account),
  });
  defineCallRoute(app, myNotificationSettingsCalls.put, {
    summary: "Replace the caller's notification settings",
    auth: 'account',
    handler: ({ account, body }) => notifications.saveSettings(account, body),
  });
}
