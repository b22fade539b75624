import { z } from 'zod';
import { MAX_REPORT_IMAGE_BYTES } from './limits.js';

/**
 * Upload policies of spec 001 §7 (GET policies/avatars, policies/forms, policies/attachments,
 * policies/images): the server answers a short-lived URL the browser PUTs one file to, straight
 * into the blob store. The rules below are the single source of the limits: the web checks them
 * before asking, the policy call refuses what breaks them, and the upload URL enforces them again.
 */
export const uploadKinds = ['avatars', 'forms', 'attachments', 'images', 'consultations'] as const;
export type UploadKind = (typeof uploadKinds)[number];

const MB = 1024 * 1024;

/** File types by MIME type, each with the one extension the stored key gets. */
export const uploadTypes = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/bmp': 'bmp',
  'image/tiff': 'tif',
  'application/pdf': 'pdf',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-xpsdocument': 'xps',
  'application/oxps': 'oxps',
} as const;
export type UploadType = keyof typeof uploadTypes;

export interface UploadRule {
  maxBytes: number;
  accept: readonly UploadType[];
}

export const uploadRules: Record<UploadKind, UploadRule> = {
  /** profile pictures */
  avatars: { maxBytes: 2 * MB, accept: ['image/png', 'image/jpeg', 'image/webp'] },
  /** order-form (application form) scans */
  forms: {
    maxBytes: 20 * MB,
    accept: ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/bmp', 'image/tiff', 'application/pdf'],
  },
  /** report and service attachments */
  attachments: {
    maxBytes: 50 * MB,
    accept: [
      'application/pdf',
      'image/png',
      'image/jpeg',
      'image/webp',
      'image/gif',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ],
  },
  /** consultation case documents and result attachments: spec 000 §9 "images, PDF, Word, Excel, XPS" */
  consultations: {
    maxBytes: 50 * MB,
    accept: [
      'image/png',
      'image/jpeg',
      'image/webp',
      'image/gif',
      'image/bmp',
      'image/tiff',
      'application/pdf',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.ms-xpsdocument',
      'application/oxps',
    ],
  },
  /** local report images: spec 000 §9 "6 report images of 5M" */
  images: { maxBytes: MAX_REPORT_IMAGE_BYTES, accept: ['image/png', 'image/jpeg'] },
};

/** How long an upload URL works. */
export const UPLOAD_URL_SECONDS = 15 * 60;

const extensionTypes: Record<string, UploadType> = {
  ...Object.fromEntries(Object.entries(uploadTypes).map(([type, ext]) => [ext, type as UploadType])),
  jpeg: 'image/jpeg',
  jpe: 'image/jpeg',
  tiff: 'image/tiff',
};

/**
 * The file's MIME type, lower-cased without parameters. Browsers leave `File.type` empty (or say
 * application/octet-stream) for types the system does not know, e.g. .docx without Office: then
 * the extension of the file name decides.
 */
export function resolveUploadType(contentType: string | undefined, fileName?: string): string {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type && type !== 'application/octet-stream') return type;
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(fileName ?? '')?.[1]?.toLowerCase();
  return (ext && extensionTypes[ext]) || type;
}

export type UploadProblem = 'FileTypeNotAllowed' | 'FileTooLarge' | 'EmptyFile';

/** Null when a file of this type and size may be uploaded as this kind, else the error code. */
export function checkUpload(kind: UploadKind, contentType: string, size: number): UploadProblem | null {
  const rule = uploadRules[kind];
  if (!(rule.accept as readonly string[]).includes(contentType)) return 'FileTypeNotAllowed';
  if (!Number.isFinite(size) || size < 1) return 'EmptyFile';
  if (size > rule.maxBytes) return 'FileTooLarge';
  return null;
}

export const uploadPolicyQuerySchema = z.object({
  /** the file's MIME type (File.type); may be empty when fileName tells the type */
  contentType: z.string().max(128).optional(),
  /** the file's exact size in bytes: the URL accepts exactly this many */
  size: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  fileName: z.string().max(255).optional(),
});
export type UploadPolicyQuery = z.infer<typeof uploadPolicyQuerySchema>;

export const uploadPolicySchema = z.object({
  /** the stored key, chosen by the server; later calls name the upload by it */
  key: z.string(),
  /** send the file's bytes as the body, with exactly these headers */
  upload: z.object({
    method: z.literal('PUT'),
    url: z.string(),
    headers: z.record(z.string(), z.string()),
  }),
  /** the URL stops working at this time, seconds since the epoch */
  expiresAt: z.number().int(),
  maxBytes: z.number().int(),
  accept: z.array(z.string()),
});
export type UploadPolicy = z.infer<typeof uploadPolicySchema>;

/**
 * GET policies/download-token (spec 001 §7 Exams, beside studies/download-token): the blob-store
 * side of downloading a study. studies/download-token answers one link to a zip the server builds;
 * this answers a short-lived URL per stored instance, straight from the blob store (S3 presigned,
 * or the local store's signed link), for clients that fetch the files themselves in parallel.
 */
export const downloadPolicyQuerySchema = z.object({
  bucketId: z.string().max(64),
  /** the StudyInstanceUID */
  storeUid: z.string().max(64),
});
export type DownloadPolicyQuery = z.infer<typeof downloadPolicyQuerySchema>;

export const downloadPolicySchema = z.object({
  storeUid: z.string(),
  /** every URL stops working at this time, seconds since the epoch */
  expiresAt: z.number().int(),
  files: z.array(
    z.object({
      seriesInstanceUid: z.string(),
      sopInstanceUid: z.string(),
      /** bytes */
      size: z.number().int(),
      url: z.string(),
    }),
  ),
});
export type DownloadPolicy = z.infer<typeof downloadPolicySchema>;

/** How long the URLs of a download policy work. */
export const DOWNLOAD_URL_SECONDS = 10 * 60;
