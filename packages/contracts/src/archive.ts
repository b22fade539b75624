import { z } from 'zod';

/** AE titles: 1–16 characters of the default repertoire, no backslash or control characters. */
export const AE_TITLE_PATTERN = /^[\x20-\x5b\x5d-\x7e]{1,16}$/;

export const modalitySchema = z.object({
  id: z.string(),
  aeTitle: z.string(),
  host: z.string().nullable(),
  name: z.string(),
});
export type Modality = z.infer<typeof modalitySchema>;

export const upsertModalitySchema = z.object({
  aeTitle: z.string().trim().regex(AE_TITLE_PATTERN),
  host: z.union([z.ipv4(), z.ipv6()]).nullable().optional(),
  name: z.string().trim().min(1).max(64),
});

/** POST viewers/{examId}/path and share-path (spec 001 §7): a signed, expiring viewer path. */
export const viewerPathRequestSchema = z.object({
  reportId: z.string().max(64).optional(),
  issuerId: z.string().max(64).optional(),
});
export const viewerPathSchema = z.object({
  openpath: z.string(),
  /** the StudyInstanceUID the viewer opens (query rsuid) */
  rsuid: z.string(),
  expires: z.number().int(),
  /** the viewer route: /viewer/{openpath}?rsuid=… */
  url: z.string(),
});
export type ViewerPath = z.infer<typeof viewerPathSchema>;

export const downloadTokenQuerySchema = z.object({ storeUid: z.string().max(64), bucketId: z.string() });
export const downloadTokenSchema = z.object({ token: z.string(), expires: z.number().int(), url: z.string() });
export const studyPackageQuerySchema = z.object({
  repackage: z.union([z.literal('1'), z.literal('true'), z.literal('0'), z.literal('false')]).optional(),
});

/** Uploads by the web wizard or a public link: a session, its files sent with tus, then a summary. */
export const uploadSessionSchema = z.object({
  uploadId: z.string(),
  /** send it as the Upload-Session header of every tus request */
  sessionToken: z.string(),
  /** the tus endpoint */
  endpoint: z.string(),
  expires: z.number().int(),
  bucketName: z.string(),
});
export type UploadSession = z.infer<typeof uploadSessionSchema>;
export const tokenUploadRequestSchema = z.object({ token: z.string().min(8).max(128) });
export const uploadSummarySchema = z.object({
  uploadId: z.string(),
  status: z.enum(['open', 'completed']),
  stored: z.number().int(),
  duplicates: z.number().int(),
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
  examIds: z.array(z.string()),
});
export type UploadSummary = z.infer<typeof uploadSummarySchema>;
export const postUploadRequestSchema = z.object({ sessionToken: z.string().max(4096) });
/** GET buckets/{id}/studies/refresh-upload-credentials: a fresh session token for an open upload. */
export const refreshUploadQuerySchema = z.object({
  uploadId: z.string().max(64),
  /** seconds the new credentials last (default a day) */
  delta: z.coerce.number().int().min(60).max(86_400).default(86_400),
});
export const UPLOAD_STATUSES = ['processing', 'completed'] as const;
export const examUploadedSchema = z.object({ id: z.string(), uploadStatus: z.enum(UPLOAD_STATUSES) });
/** Why an organization cannot receive uploads now (a private one without quota or subscription). */
export const uploadBlockSchema = z.enum(['BucketFull', 'SubscriptionExpired']);
export type UploadBlock = z.infer<typeof uploadBlockSchema>;

export const uploadableBucketSchema = z.object({
  id: z.string(),
  name: z.string(),
  groupId: z.string(),
  /** set when uploads into it are refused until its plan is renewed */
  blocked: uploadBlockSchema.nullable(),
});

/** An organization's plan (spec 000 §3 "Plan"): studies it may receive and until when. */
export const PLAN_KINDS = ['period', 'oneTime'] as const;
export const MAX_PLAN_QUOTA = 10_000_000;
export const bucketPlanSchema = z.object({
  kind: z.enum(PLAN_KINDS).nullable(),
  /** studies the plan allows; null: unlimited */
  quota: z.number().int().nullable(),
  /** studies received so far */
  used: z.number().int(),
  expiresAt: z.string().nullable(),
  /** private organizations only receive uploads with a plan that has quota left and has not expired */
  isPrivate: z.boolean(),
  blocked: uploadBlockSchema.nullable(),
});
export type BucketPlan = z.infer<typeof bucketPlanSchema>;
export const updateBucketPlanSchema = z
  .object({
    kind: z.enum(PLAN_KINDS).nullable(),
    quota: z.number().int().min(0).max(MAX_PLAN_QUOTA).nullable(),
    expiresAt: z.iso.datetime({ offset: true }).nullable(),
    /** start counting received studies from zero (a renewed period) */
    resetUsed: z.boolean().optional(),
  })
  .strict();
export type UpdateBucketPlan = z.infer<typeof updateBucketPlanSchema>;
