import { z } from 'zod';

/**
 * Refused DICOM associations (issue 19 §8): why the archive refused a peer at association.
 * - calledAe: the called AE title is not this archive's;
 * - callingAe: the calling AE title is not registered by any organization;
 * - callingHost: the calling AE title is registered, but the peer is not at its registered host.
 */
export const DICOM_REFUSAL_REASONS = ['calledAe', 'callingAe', 'callingHost'] as const;
export type DicomRefusalReason = (typeof DICOM_REFUSAL_REASONS)[number];

/**
 * POST admin/dicom-associations/page-query (platform admin: every refusal) and
 * POST groups/{groupId}/dicom-associations/page-query (the group's auditors: refusals naming an
 * AE title registered by one of its organizations). Newest first.
 */
export const dicomRefusalQuerySchema = z.object({
  /** part of the calling or called AE title, any case */
  aeTitle: z.string().trim().max(16).optional(),
  from: z.iso.datetime().optional(),
  to: z.iso.datetime().optional(),
  skip: z.number().int().min(0).max(1_000_000).optional(),
  limit: z.number().int().min(1).max(200).optional(),
});
export type DicomRefusalQuery = z.infer<typeof dicomRefusalQuerySchema>;

export const dicomRefusalSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  callingAe: z.string(),
  calledAe: z.string(),
  /** the peer's IP address */
  peerAddress: z.string().nullable(),
  reason: z.enum(DICOM_REFUSAL_REASONS),
  outcome: z.string(),
  /** the organization that had registered the calling AE title at the time, when the caller may see it */
  organization: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type DicomRefusal = z.infer<typeof dicomRefusalSchema>;

export const dicomRefusalPageSchema = z.object({ refusals: z.array(dicomRefusalSchema), count: z.number().int() });
export type DicomRefusalPage = z.infer<typeof dicomRefusalPageSchema>;
