import { z } from 'zod';
import { viewerPathSchema } from './archive.js';

/**
 * Sharing and publishing approved reports (spec 000 §2 /reports/s, /web, /report-publish; §3 share
 * link; spec 001 §7 share/report, publishers/*, orders/publish-reports).
 *
 * - A share link (`kind` share, made by a doctor) or publish link (`kind` publish, made by
 *   orders/publish-reports) holds a link id of SHARE_LINK_BYTES random bytes, base64url. Only its
 *   SHA-256 is stored: the id is answered once, when the link is made.
 * - A link pins the report version it was made at. Opening it later answers `state`:
 *   `current` (the report as shared), `updated` (it was recalled, corrected and approved again:
 *   the page shows the current approved version with a notice), or `withdrawn` (recalled or under
 *   correction now: no findings or conclusion at all, only the notice).
 * - An unknown, malformed, expired or revoked link answers one identical LinkInvalid error.
 * - /web-report is the entry of hospital information systems, signed per group (see
 *   webReportCanonical).
 */

/** Random bytes in a link id (192 bits; the issue asks for at least 128). */
export const SHARE_LINK_BYTES = 24;
/** A link id as issued: base64url, no padding. */
export const SHARE_LINK_ID_PATTERN = /^[A-Za-z0-9_-]{22,128}$/;
export const SHARE_EXPIRES_MAX_DAYS = 90;
export const SHARE_EXPIRES_DEFAULT_DAYS = 7;
export const PUBLISH_EXPIRES_DEFAULT_DAYS = 30;
export const PUBLISH_MAX_EXAMS = 100;
/** The web page of a link: /reports/s?link=… */
export const shareReportUrl = (linkId: string): string => `/reports/s?link=${encodeURIComponent(linkId)}`;

export const SHARE_LINK_KINDS = ['share', 'publish'] as const;
export type ShareLinkKind = (typeof SHARE_LINK_KINDS)[number];

/* ---------- a doctor's share link: reports/{id}/share, shares, shares/{shareId}/revoke ---------- */

export const shareReportRequestSchema = z
  .object({
    expiresInDays: z.number().int().min(1).max(SHARE_EXPIRES_MAX_DAYS).default(SHARE_EXPIRES_DEFAULT_DAYS),
    /** the page also opens the images read-only (needs study_package, as viewers/{id}/share-path) */
    allowImages: z.boolean().default(false),
  })
  .strict();
export type ShareReportRequest = z.input<typeof shareReportRequestSchema>;

/** A link as made: the only time its id is ever answered. */
export const shareLinkCreatedSchema = z.object({
  /** the link's row id (list, revoke) — not a credential */
  id: z.string(),
  kind: z.enum(SHARE_LINK_KINDS),
  /** the credential: base64url of SHARE_LINK_BYTES random bytes */
  linkId: z.string(),
  /** the web page: /reports/s?link=… */
  url: z.string(),
  expiresAt: z.string(),
  allowImages: z.boolean(),
});
export type ShareLinkCreated = z.infer<typeof shareLinkCreatedSchema>;

export const SHARE_LINK_STATES = ['live', 'expired', 'revoked'] as const;
export type ShareLinkState = (typeof SHARE_LINK_STATES)[number];

/** A link in a list: never its id. */
export const shareLinkSchema = z.object({
  id: z.string(),
  kind: z.enum(SHARE_LINK_KINDS),
  state: z.enum(SHARE_LINK_STATES),
  /** the report was recalled or changed since the link was made */
  superseded: z.boolean(),
  reportVersion: z.number().int(),
  allowImages: z.boolean(),
  createdBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  viewCount: z.number().int(),
  lastViewedAt: z.string().nullable(),
});
export type ShareLink = z.infer<typeof shareLinkSchema>;
export const shareLinksSchema = z.object({ links: z.array(shareLinkSchema) });

/* ---------- what an anonymous visitor sees: share/report ---------- */

export const SHARED_REPORT_STATES = ['current', 'updated', 'withdrawn'] as const;
export type SharedReportState = (typeof SHARED_REPORT_STATES)[number];

export const sharedImageSchema = z.object({
  id: z.string(),
  /** an expiring download link */
  url: z.string(),
  desc: z.string(),
  index: z.number().int(),
});
export type SharedImage = z.infer<typeof sharedImageSchema>;

export const sharedReportSchema = z.object({
  /** share and publish: a link; web: a hospital system's signed entry */
  kind: z.enum(['share', 'publish', 'web']),
  state: z.enum(SHARED_REPORT_STATES),
  /** state is not `current`: the report changed after the link was made */
  superseded: z.boolean(),
  /** why, for API users (the web shows its own words by state) */
  hint: z.string(),
  /** when the report last changed status (withdrawn) or was approved again (updated) */
  supersededAt: z.string().nullable(),
  examId: z.string(),
  reportId: z.string(),
  /** the hospital as its print template names it, else the group's and the organization's names */
  organizationName: z.string(),
  /** masked for anonymous visitors (maskPatientName) */
  patientName: z.string(),
  /** spec 000 §3 gender codes */
  patientSex: z.string(),
  /** like 045Y */
  patientAge: z.string(),
  exam: z.object({
    modality: z.string(),
    bodyPart: z.string(),
    studyDate: z.string(),
    studyDescription: z.string(),
    accessionNumber: z.string(),
    /** /web with showExtra only: the order's clinical context */
    extra: z
      .object({
        applyDept: z.string(),
        clinicImpression: z.string(),
        physician: z.string(),
        patientSource: z.string(),
      })
      .nullable(),
  }),
  /** null when withdrawn */
  report: z
    .object({
      findings: z.string(),
      conclusion: z.string(),
      reporter: z.string(),
      approver: z.string(),
      approvedAt: z.string().nullable(),
      version: z.number().int(),
    })
    .nullable(),
  /** key images marked printed, in order (none when withdrawn) */
  images: z.array(sharedImageSchema),
  /** a read-only viewer share path when the link allows images (or /web with openImage) */
  viewerPath: viewerPathSchema.nullable(),
  /** the link's expiry (web: the signed expires) */
  expiresAt: z.string().nullable(),
});
export type SharedReport = z.infer<typeof sharedReportSchema>;

/**
 * GET share/report?link=…[&examId=…]. examId opens another published report of the same patient
 * that publishers/find-past-exams listed for a publish link. Values that do not fit answer the
 * same LinkInvalid as an unknown link.
 */
export const shareReportQuerySchema = z.object({
  link: z.string().max(512).optional(),
  examId: z.string().max(64).optional(),
});

/* ---------- publishers/find-co-exams, find-past-exams (public; [] on any failure) ---------- */

/** Malformed values are treated as absent, so these calls always answer a list. */
export const publishersQuerySchema = z.object({
  examId: z.string().max(64).optional().catch(undefined),
  shareLinkId: z.string().max(512).optional().catch(undefined),
});

export const publishedCoExamSchema = z.object({
  examId: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  studyDate: z.string(),
  studyDescription: z.string(),
});
export type PublishedCoExam = z.infer<typeof publishedCoExamSchema>;

export const publishedPastExamSchema = publishedCoExamSchema.extend({
  reportId: z.string(),
  approvedAt: z.string().nullable(),
});
export type PublishedPastExam = z.infer<typeof publishedPastExamSchema>;

/* ---------- orders/publish-reports, report-publish/page-query, report-publish/detail ---------- */

export const publishReportsRequestSchema = z
  .object({
    /**
     * The caller's access token, carried by the body (spec 001 §8: the client sends no stored
     * token on orders/publish-reports; the body carries its own). A bearer header is still taken.
     */
    token: z.string().min(1).max(4096).optional(),
    examIds: z.array(z.string().max(64)).min(1).max(PUBLISH_MAX_EXAMS),
    expiresInDays: z.number().int().min(1).max(SHARE_EXPIRES_MAX_DAYS).default(PUBLISH_EXPIRES_DEFAULT_DAYS),
  })
  .strict();
export type PublishReportsRequest = z.input<typeof publishReportsRequestSchema>;

export const PUBLISH_REFUSALS = ['notFound', 'forbidden', 'notApproved'] as const;
export type PublishRefusal = (typeof PUBLISH_REFUSALS)[number];

/** One answer per exam asked, in the order asked (a repeated id answers once). */
export const publishResultSchema = z.object({
  results: z.array(
    z.object({
      examId: z.string(),
      ok: z.boolean(),
      reportId: z.string().nullable(),
      link: shareLinkCreatedSchema.nullable(),
      reason: z.enum(PUBLISH_REFUSALS).nullable(),
    }),
  ),
});
export type PublishResult = z.infer<typeof publishResultSchema>;

export const PUBLISH_FILTER_FIELDS = ['patientName', 'patientId', 'modality', 'state', 'publishedDate'] as const;
export const publishFilterSchema = z.object({
  field: z.enum(PUBLISH_FILTER_FIELDS),
  /** state: live|expired|revoked|superseded; publishedDate: [from, to] as YYYY-MM-DD */
  values: z.array(z.string().trim().max(128)).max(20),
});
export type PublishFilter = z.infer<typeof publishFilterSchema>;

export const PUBLISH_PAGE_DEFAULT = 10;
export const PUBLISH_PAGE_MAX = 100;
export const publishPageQuerySchema = z
  .object({
    /** one organization; all the caller may publish in when absent */
    bucketId: z.string().max(64).optional(),
    skip: z.number().int().optional(),
    limit: z.number().int().optional(),
    filters: z.array(publishFilterSchema).max(10).default([]),
  })
  .strict();
export type PublishPageQuery = z.input<typeof publishPageQuerySchema>;

export const publishedReportRowSchema = z.object({
  /** the publish link's row id */
  id: z.string(),
  examId: z.string(),
  reportId: z.string(),
  bucketId: z.string(),
  bucketName: z.string(),
  /** masked as privateFieldsMasked says (group privacy on without view_privacy, or confidential without it) */
  patientName: z.string(),
  patientId: z.string(),
  patientSex: z.string(),
  patientAge: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  studyDate: z.string(),
  accessionNumber: z.string(),
  state: z.enum(SHARE_LINK_STATES),
  superseded: z.boolean(),
  publishedBy: z.string(),
  publishedAt: z.string(),
  expiresAt: z.string(),
  viewCount: z.number().int(),
  lastViewedAt: z.string().nullable(),
});
export type PublishedReportRow = z.infer<typeof publishedReportRowSchema>;
export const publishPageSchema = z.object({ data: z.array(publishedReportRowSchema), count: z.number().int() });
export type PublishPage = z.infer<typeof publishPageSchema>;

export const publishDetailQuerySchema = z.object({ examId: z.string().max(64), reportId: z.string().max(64) });
/** The report as its publish links show it now, and its links (share and publish). */
export const publishDetailSchema = z.object({ report: sharedReportSchema, links: z.array(shareLinkSchema) });
export type PublishDetail = z.infer<typeof publishDetailSchema>;

/* ---------- /web: a hospital information system's signed entry ---------- */

/**
 * The signed fields of GET web-report, in signing order. The signature is the lower-case hex
 * HMAC-SHA256, keyed with the group's web secret (its UTF-8 bytes), of webReportCanonical: one
 * `name=value` line per field in this order, joined by "\n", the values exactly as sent (absent:
 * empty). `expires` and `timestamp` are seconds since the epoch.
 */
export const WEB_REPORT_SIGNED_FIELDS = [
  'groupId',
  'patientId',
  'serviceRequestId',
  'expires',
  'timestamp',
  'openImage',
  'showExtra',
] as const;
export type WebReportSignedField = (typeof WEB_REPORT_SIGNED_FIELDS)[number];
/** The query a hospital system's /web link carries: the signed fields and the signature. */
export const WEB_REPORT_QUERY_FIELDS = [...WEB_REPORT_SIGNED_FIELDS, 'signature'] as const;
/** A timestamp further ahead of the server's clock than this is refused. */
export const WEB_REPORT_MAX_SKEW_SECONDS = 600;

export function webReportCanonical(fields: Partial<Record<WebReportSignedField, string | undefined>>): string {
  return WEB_REPORT_SIGNED_FIELDS.map((name) => `${name}=${fields[name] ?? ''}`).join('\n');
}

const noControl = (s: string): boolean => Array.from(s).every((c) => c.charCodeAt(0) >= 0x20 && c !== '\u007f');
const printable = z.string().max(128).refine(noControl, 'no control characters');
const seconds = z.string().regex(/^\d{1,12}$/, 'seconds since the epoch');
const flag = z.enum(['0', '1', 'true', 'false', '']).optional();

export const webReportQuerySchema = z.object({
  groupId: printable.min(1),
  patientId: printable.min(1),
  /** the order: the exam's accession number */
  serviceRequestId: printable.optional(),
  expires: seconds,
  timestamp: seconds,
  /** also answer a read-only viewer share path */
  openImage: flag,
  /** also answer the order's clinical context */
  showExtra: flag,
  signature: z.string().max(128),
});
export type WebReportQuery = z.infer<typeof webReportQuerySchema>;
export const isWebFlagOn = (v: string | undefined): boolean => v === '1' || v === 'true';

/** POST groups/{groupId}/integration/web-secret: the new secret, answered once. */
export const webSecretSchema = z.object({
  secret: z.string(),
  createdAt: z.string(),
  rotatedAt: z.string().nullable(),
});
export type WebSecret = z.infer<typeof webSecretSchema>;
/** GET groups/{groupId}/integration/web-secret: whether one is set (never the secret). */
export const webSecretStatusSchema = z.object({
  configured: z.boolean(),
  createdAt: z.string().nullable(),
  rotatedAt: z.string().nullable(),
});
export type WebSecretStatus = z.infer<typeof webSecretStatusSchema>;
