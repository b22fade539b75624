import { z } from 'zod';
import { MAX_REPORT_IMAGES } from './limits.js';
import { uploadPolicyQuerySchema, type UploadKind } from './policies.js';

/**
 * Upload codes (spec 000 §2 /mobileSignature, /service-orders/upload and /attachments/upload;
 * spec 001 §7 "Signature" and "Service attachments"): a short-lived secret in a link or QR code
 * that lets a phone or an outside sender upload one kind of file for one purpose, without an
 * account, and do nothing else.
 */
export const SIGNATURE_CODE_SECONDS = 10 * 60;
export const ATTACHMENT_CODE_SECONDS = 24 * 3600;
/** One signature picture (PNG drawn on the phone, or PNG/JPEG chosen on the desktop). */
export const MAX_SIGNATURE_BYTES = 1024 * 1024;
/** Spec 000 §9 "6 report images": the files one attachment code may send. */
export const MAX_FILES_PER_UPLOAD_CODE = MAX_REPORT_IMAGES;
/** How often the desktop settings page looks for a signature drawn on the phone. */
export const SIGNATURE_POLL_MS = 3000;

export const attachmentKinds = ['form', 'attachment'] as const;
export type AttachmentKind = (typeof attachmentKinds)[number];
/** The upload policy rules each attachment kind follows (policies.ts). */
export const attachmentUploadKind: Record<AttachmentKind, UploadKind> = { form: 'forms', attachment: 'attachments' };
/** The public page a code of each kind opens. */
export const attachmentUploadPath: Record<AttachmentKind, string> = {
  form: '/service-orders/upload',
  attachment: '/attachments/upload',
};
export const SIGNATURE_PATH = '/mobileSignature';

export const codeSchema = z.string().min(16).max(128);
export const codeQuerySchema = z.object({ code: codeSchema });

export const uploadCodeSchema = z.object({
  code: z.string(),
  /** the page to open, path and query (the web adds its origin) */
  url: z.string(),
  /** seconds since the epoch */
  expiresAt: z.number().int(),
});
export type UploadCode = z.infer<typeof uploadCodeSchema>;

export const codeUploadPolicyQuerySchema = uploadPolicyQuerySchema.extend({ code: codeSchema });
export type CodeUploadPolicyQuery = z.infer<typeof codeUploadPolicyQuerySchema>;

// --- signature ---

/** POST signature: the phone's upload (key from GET signature/policies) becomes the signature. */
export const signatureByCodeRequestSchema = z.object({ code: codeSchema, url: z.string().min(1).max(512) });
export type SignatureByCodeRequest = z.infer<typeof signatureByCodeRequestSchema>;

/** PUT signature/mine: the caller's own upload (policies/images) becomes the signature. */
export const setSignatureRequestSchema = z.object({ url: z.string().min(1).max(512) });
export type SetSignatureRequest = z.infer<typeof setSignatureRequestSchema>;

export const signatureSchema = z.object({
  /** a short-lived URL that shows the signature, or null */
  signature: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type Signature = z.infer<typeof signatureSchema>;

// --- attachments ---

export const attachmentCodeRequestSchema = z.object({ kind: z.enum(attachmentKinds) });
export type AttachmentCodeRequest = z.infer<typeof attachmentCodeRequestSchema>;

export const codeUploadSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  createdAt: z.string(),
});
export type CodeUpload = z.infer<typeof codeUploadSchema>;

/** GET service-attachment: what a code is for, with no more patient data than needed to check. */
export const serviceAttachmentSchema = z.object({
  kind: z.enum(attachmentKinds),
  organizationName: z.string(),
  exam: z.object({
    modality: z.string(),
    studyDate: z.string(),
    /** masked, see maskPatientName */
    patientName: z.string(),
  }),
  accept: z.array(z.string()),
  maxBytes: z.number().int(),
  maxFiles: z.number().int(),
  expiresAt: z.number().int(),
  /** files already sent through this code */
  uploads: z.array(codeUploadSchema),
});
export type ServiceAttachment = z.infer<typeof serviceAttachmentSchema>;

export const uploadByCodeRequestSchema = z.object({
  code: codeSchema,
  key: z.string().min(1).max(512),
  fileName: z.string().trim().min(1).max(255),
});
export type UploadByCodeRequest = z.infer<typeof uploadByCodeRequestSchema>;

export const examAttachmentSchema = z.object({
  id: z.string(),
  examId: z.string(),
  kind: z.enum(attachmentKinds),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  source: z.enum(['account', 'code']),
  uploadedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  /** a short-lived download URL; null without attachment_presigned_url */
  url: z.string().nullable(),
});
export type ExamAttachment = z.infer<typeof examAttachmentSchema>;

export const examAttachmentListSchema = z.object({ attachments: z.array(examAttachmentSchema) });
export type ExamAttachmentList = z.infer<typeof examAttachmentListSchema>;

// --- report attachments (spec 001 §7 "Reports": attachments under reports/{id}) ---

/**
 * POST reports/{id}/attachments/upload: a member records a file it uploaded itself with
 * GET policies/attachments (kind attachment) or policies/forms (kind form) on the report's exam.
 */
export const reportAttachmentUploadSchema = z.object({
  key: z.string().min(1).max(512),
  name: z.string().trim().min(1).max(255),
  /** what the caller believes it sent; refused when it names another type than the upload's */
  contentType: z.string().max(255).optional(),
  kind: z.enum(attachmentKinds).default('attachment'),
});
export type ReportAttachmentUpload = z.infer<typeof reportAttachmentUploadSchema>;

/** GET reports/{id}/attachments/{attachmentId}/presign-url */
export const attachmentDownloadUrlSchema = z.object({
  url: z.string(),
  /** seconds since the epoch; the URL works at least until then */
  expiresAt: z.number().int(),
});
export type AttachmentDownloadUrl = z.infer<typeof attachmentDownloadUrlSchema>;
