import { defineCall } from './call.js';
import {
  learningDetailSchema,
  learningListQuerySchema,
  learningListSchema,
  learningParamsSchema,
  learningSchema,
  learningUpdateSchema,
  learningUploadQuerySchema,
  learningVideoQuerySchema,
  myNotificationSettingsSchema,
  myNotificationSettingsUpdateSchema,
} from './learning.js';

/**
 * Learning videos (contracts learning.ts). Server: modules/learnings/learnings.routes.ts; web:
 * api/learnings.ts. `list` is any signed-in user's (published only unless a platform admin);
 * `get` is public for a published video (/learning/{id} is a public route); `video` is public with
 * its signed token (HTTP Range: 206, 416); the writes are the platform admins'.
 */
export const learningCalls = {
  list: defineCall({
    method: 'GET',
    path: 'learnings/list',
    query: learningListQuerySchema,
    answer: learningListSchema,
  }),
  get: defineCall({
    method: 'GET',
    path: 'learnings/:learningId',
    params: learningParamsSchema,
    answer: learningDetailSchema,
  }),
  /** the video's bytes (200, or 206 for a Range; 416 for a range past its end) */
  video: defineCall({
    method: 'GET',
    path: 'learnings/:learningId/video',
    params: learningParamsSchema,
    query: learningVideoQuerySchema,
  }),
  /** raw body: the video (Content-Type video/mp4 or video/webm, at most LEARNING_VIDEO_MAX_BYTES) */
  upload: defineCall({
    method: 'POST',
    path: 'learnings',
    query: learningUploadQuerySchema,
    answer: learningSchema,
    status: 201,
  }),
  update: defineCall({
    method: 'PATCH',
    path: 'learnings/:learningId',
    params: learningParamsSchema,
    body: learningUpdateSchema,
    answer: learningSchema,
  }),
  remove: defineCall({ method: 'DELETE', path: 'learnings/:learningId', params: learningParamsSchema, status: 204 }),
} as const;

/** The caller's own notification settings (server: modules/notifications; web: api/notificationSettings.ts). */
export const myNotificationSettingsCalls = {
  get: defineCall({ method: 'GET', path: 'accounts/me/notification-settings', answer: myNotificationSettingsSchema }),
  put: defineCall({
    method: 'PUT',
    path: 'accounts/me/notification-settings',
    body: myNotificationSettingsUpdateSchema,
    answer: myNotificationSettingsSchema,
  }),
} as const;
