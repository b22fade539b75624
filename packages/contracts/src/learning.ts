import { z } from 'zod';
import { NOTIFICATION_KINDS } from './notifications.js';

/**
 * Learning videos (spec 000 §2 /learning/{id} and the navbar's "learning videos"; spec 001 §7
 * learnings/list; issue 27). The platform admin uploads training videos into the blob store; anyone
 * signed in lists and plays the published ones, and /learning/{id} plays a published one for a
 * visitor too (a public read of published videos: its answer carries a short-lived signed stream URL,
 * since a <video> element cannot send a bearer header).
 */

/** The video types a learning video may have, recognized by their bytes (not the name). */
export const LEARNING_VIDEO_TYPES = ['video/mp4', 'video/webm'] as const;
export type LearningVideoType = (typeof LEARNING_VIDEO_TYPES)[number];
/** The largest learning video the platform admin may upload: 512 MiB. */
export const LEARNING_VIDEO_MAX_BYTES = 512 * 1024 * 1024;
/** How long a signed stream URL of a learning video plays (seconds). */
export const LEARNING_VIDEO_URL_SECONDS = 4 * 3600;
/** Page size of learnings/list. */
export const LEARNING_PAGE_SIZE = 20;
export const LEARNING_TITLE_MAX = 128;
export const LEARNING_DESCRIPTION_MAX = 2000;

export const learningSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  contentType: z.enum(LEARNING_VIDEO_TYPES),
  /** bytes */
  size: z.number().int(),
  durationSeconds: z.number().int().nullable(),
  sortOrder: z.number().int(),
  published: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Learning = z.infer<typeof learningSchema>;

/** GET learnings/{id}: the video and a signed URL its <video> element streams (HTTP Range) until `videoUrlExpires`. */
export const learningDetailSchema = learningSchema.extend({
  /** an absolute path under the API base with its signed token */
  videoUrl: z.string(),
  /** seconds since the epoch */
  videoUrlExpires: z.number().int(),
});
export type LearningDetail = z.infer<typeof learningDetailSchema>;

export const learningListQuerySchema = z.object({
  skip: z.coerce.number().int().min(0).max(100_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(LEARNING_PAGE_SIZE),
});
export const learningListSchema = z.object({
  items: z.array(learningSchema),
  count: z.number().int(),
});
export type LearningList = z.infer<typeof learningListSchema>;

const titleSchema = z.string().trim().min(1).max(LEARNING_TITLE_MAX);
const descriptionSchema = z.string().trim().max(LEARNING_DESCRIPTION_MAX);

/**
 * POST learnings: the video's bytes are the raw body (Content-Type video/mp4 or video/webm, checked
 * against the bytes); what describes it travels in the query.
 */
export const learningUploadQuerySchema = z.object({
  title: titleSchema,
  description: descriptionSchema.default(''),
  published: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  sortOrder: z.coerce.number().int().min(-100_000).max(100_000).default(0),
});

/** PATCH learnings/{id}: what the platform admin edits (at least one field). */
export const learningUpdateSchema = z
  .object({
    title: titleSchema,
    description: descriptionSchema,
    sortOrder: z.number().int().min(-100_000).max(100_000),
    published: z.boolean(),
    durationSeconds: z
      .number()
      .int()
      .min(0)
      .max(24 * 3600)
      .nullable(),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to change' });
export type LearningUpdate = z.infer<typeof learningUpdateSchema>;

export const learningParamsSchema = z.object({ learningId: z.string().max(64) });
export const learningVideoQuerySchema = z.object({ token: z.string().max(4096) });

/* ---------- personal notification settings (spec 000 §2 "Personal settings: … notifications") ---------- */

/**
 * Which notifications of the bell also toast (and chime) for the account: a muted kind is still
 * listed in the bell (and counted unread) but never toasts nor plays a sound. `sound`: whether a
 * toast plays a short chime. Stored per account on the server; the default is every kind, no sound.
 */
export const myNotificationSettingsSchema = z.object({
  mutedKinds: z.array(z.enum(NOTIFICATION_KINDS)).max(NOTIFICATION_KINDS.length),
  sound: z.boolean(),
});
export type MyNotificationSettings = z.infer<typeof myNotificationSettingsSchema>;
export const DEFAULT_MY_NOTIFICATION_SETTINGS: MyNotificationSettings = { mutedKinds: [], sound: false };

export const myNotificationSettingsUpdateSchema = z
  .object({
    mutedKinds: z
      .array(z.enum(NOTIFICATION_KINDS))
      .max(NOTIFICATION_KINDS.length)
      .refine((kinds) => new Set(kinds).size === kinds.length, { message: 'A kind is named twice' }),
    sound: z.boolean(),
  })
  .strict();
