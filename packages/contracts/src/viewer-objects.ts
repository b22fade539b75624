import { z } from 'zod';
import { defineCall } from './call.js';

/**
 * The study's objects other than images (issue 28 item 10): Structured Reports shown as text,
 * encapsulated PDF shown inline, Key Object Selections marking key images, presentation states.
 * Read, like every viewer call, with the signed openpath in the x-yyp-viewer header; an
 * encapsulated document is then fetched through a short-lived link (a frame cannot send a header).
 * Server: modules/viewing/viewer-objects.*; web: features/viewer/objects*.
 */

/** What the viewer does with an instance, by its SOP Class UID (null: an image, or nothing it shows). */
export type ViewerObjectKind = 'sr' | 'pdf' | 'ko' | 'pr';
export const SR_SOP_CLASS_PREFIX = '1.2.840.10008.5.1.4.1.1.88.';
export const KEY_OBJECT_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.88.59';
export const ENCAPSULATED_PDF_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.104.1';
export const GSPS_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.11.1';

export function viewerObjectKind(sopClassUid: string): ViewerObjectKind | null {
  if (sopClassUid === KEY_OBJECT_SOP_CLASS) return 'ko';
  if (sopClassUid.startsWith(SR_SOP_CLASS_PREFIX)) return 'sr';
  if (sopClassUid === ENCAPSULATED_PDF_SOP_CLASS) return 'pdf';
  if (sopClassUid === GSPS_SOP_CLASS) return 'pr';
  return null;
}

export const viewerObjectSchema = z.object({
  seriesUid: z.string(),
  sopUid: z.string(),
  sopClassUid: z.string(),
  kind: z.enum(['sr', 'pdf', 'ko', 'pr']),
  instanceNumber: z.number().int().nullable(),
});
export type ViewerObject = z.infer<typeof viewerObjectSchema>;

/** An image a Key Object Selection names: its series and instance, and frames ([]: all of them). */
export const keyImageRefSchema = z.object({
  seriesUid: z.string(),
  sopUid: z.string(),
  frames: z.array(z.number().int()),
  /** the selection's description (its Key Object Description text) */
  note: z.string(),
});
export type KeyImageRef = z.infer<typeof keyImageRefSchema>;

/** GET viewer/objects */
export const viewerObjectsSchema = z.object({
  objects: z.array(viewerObjectSchema),
  keyImages: z.array(keyImageRefSchema),
});
export type ViewerObjects = z.infer<typeof viewerObjectsSchema>;

/** One content item of an SR document, in document order; depth 0 is the root container. */
export const srItemSchema = z.object({
  depth: z.number().int(),
  relationship: z.string(),
  valueType: z.string(),
  concept: z.string(),
  value: z.string(),
  reference: z.object({ sopClassUid: z.string(), sopUid: z.string(), frames: z.array(z.number().int()) }).nullable(),
});
export type SrItem = z.infer<typeof srItemSchema>;

export const srObserverSchema = z.object({
  role: z.enum(['author', 'verifier']),
  name: z.string(),
  organization: z.string(),
  dateTime: z.string(),
});

/** GET viewer/…/instances/:instance/sr: the document as readable text (patient fields masked as the context). */
export const srDocumentSchema = z.object({
  sopClassUid: z.string(),
  sopUid: z.string(),
  seriesUid: z.string(),
  title: z.string(),
  /** COMPLETE or PARTIAL ('' for a Key Object Selection) */
  completion: z.string(),
  /** VERIFIED or UNVERIFIED */
  verification: z.string(),
  contentDate: z.string(),
  contentTime: z.string(),
  manufacturer: z.string(),
  institution: z.string(),
  patientName: z.string(),
  patientId: z.string(),
  observers: z.array(srObserverSchema),
  items: z.array(srItemSchema),
  /** items were left out: nested too deep, too many, or text cut */
  truncated: z.boolean(),
});
export type SrDocument = z.infer<typeof srDocumentSchema>;

/** POST viewer/…/instances/:instance/document-link: where a frame reads the encapsulated document. */
export const viewerDocumentLinkSchema = z.object({
  /** a path under API_BASE (viewer/document?link=…), valid until `expires` */
  url: z.string(),
  mimeType: z.string(),
  /** seconds since the epoch */
  expires: z.number().int(),
});
export type ViewerDocumentLink = z.infer<typeof viewerDocumentLinkSchema>;

/** How long a document link lives: long enough to load the frame, not to be passed around. */
export const VIEWER_DOCUMENT_LINK_SECONDS = 300;

/** A presentation state's annotation of one image: graphics and text in image pixels. */
export const imageAnnotationSchema = z.object({
  /** the presentation state it comes from */
  stateUid: z.string(),
  label: z.string(),
  sopUid: z.string(),
  /** the frames it applies to ([]: every frame) */
  frames: z.array(z.number().int()),
  graphics: z.array(
    z.object({
      type: z.enum(['POLYLINE', 'INTERPOLATED', 'POINT', 'CIRCLE', 'ELLIPSE']),
      /** x (column), y (row) pairs; 0,0 the top left corner of the top left pixel */
      points: z.array(z.number()),
      filled: z.boolean(),
    }),
  ),
  texts: z.array(
    z.object({
      text: z.string(),
      box: z.array(z.number()).nullable(),
      anchor: z.array(z.number()).nullable(),
    }),
  ),
});
export type ImageAnnotation = z.infer<typeof imageAnnotationSchema>;

/** GET viewer/annotations: the study's presentation states' annotations (PIXEL units), by image. */
export const viewerAnnotationsSchema = z.object({ annotations: z.array(imageAnnotationSchema) });

const uid = z.string().max(64);
const instance = z.object({ study: uid, series: uid, instance: uid });

export const viewerObjectCalls = {
  objects: defineCall({ method: 'GET', path: 'viewer/objects', answer: viewerObjectsSchema }),
  annotations: defineCall({ method: 'GET', path: 'viewer/annotations', answer: viewerAnnotationsSchema }),
  srDocument: defineCall({
    method: 'GET',
    path: 'viewer/studies/:study/series/:series/instances/:instance/sr',
    params: instance,
    answer: srDocumentSchema,
  }),
  documentLink: defineCall({
    method: 'POST',
    path: 'viewer/studies/:study/series/:series/instances/:instance/document-link',
    params: instance,
    answer: viewerDocumentLinkSchema,
  }),
  /** the encapsulated document itself (application/pdf); the link is the credential */
  document: defineCall({
    method: 'GET',
    path: 'viewer/document',
    query: z.object({ link: z.string().min(1).max(4096) }).strict(),
  }),
} as const;
