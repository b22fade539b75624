import crypto from 'node:crypto';
import { KEY_IMAGE_MAX_BYTES, KEY_IMAGE_MAX_COUNT, type ReportImage } from '@yyp/contracts';
import type { AccountRow, ReportImageRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import { imageLink, type BlobStore } from '../../platform/blobs.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import {
  countImages,
  deleteImageRow,
  imageIdsOf,
  insertImage,
  listImages,
  lockReportExam,
  reorderImages,
  updateImage,
} from './report-images.store.js';
import type { ReadOnlyGate } from '../reports/index.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

/** The type an image's first bytes prove, or null. */
export function sniffImage(bytes: Uint8Array): 'image/png' | 'image/jpeg' | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 8));
  if (b.length >= 8 && b.equals(PNG)) return 'image/png';
  if (b.length >= 3 && b.subarray(0, 3).equals(JPEG)) return 'image/jpeg';
  return null;
}

/**
 * A report's key images (spec 000 §3 Report images): at most KEY_IMAGE_MAX_COUNT PNG or JPEG
 * images of KEY_IMAGE_MAX_BYTES, in order, each with a description and a print flag. Callers
 * have checked the right to read or edit the report.
 */
export class ReportImages {
  /** Whether the report is read-only in its organization, and the refusal (the reports' check, app.ts). */
  /** the reports' read-only check, told to this module by app.ts (gateWith) */
  private gate: ReadOnlyGate = { readOnly: () => Promise.resolve(false), refuseReadOnly: () => Promise.resolve() };

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
  ) {}

  /** The reports module's read-only check (app.ts): a published-back report's images are not written. */
  gateWith(gate: ReadOnlyGate): void {
    this.gate = gate;
  }

  /** Whether the report's images may change in the organization (no: the experts' report published back). */
  async writable(reportId: string, bucketId: string): Promise<boolean> {
    return !(await this.gate.readOnly(reportId, bucketId));
  }

  private imageOut(row: ReportImageRow, url: string): ReportImage {
    return {
      id: row.id,
      url,
      desc: row.desc,
      index: row.position,
      isPrinted: row.isPrinted,
      point: row.point,
      contentType: row.contentType,
      size: row.size,
      createdTime: row.createdTime.toISOString(),
    };
  }

  private imageUrl(row: ReportImageRow): Promise<string> {
    return imageLink(this.blobs, row);
  }

  /**
   * A key image into a report (the viewer's capture, a local file or a pasted clipboard image in
   * the editor): checked to be PNG or JPEG of at most KEY_IMAGE_MAX_BYTES, at most
   * KEY_IMAGE_MAX_COUNT per report. The caller has checked the right to edit the report.
   */
  async storeImage(
    exam: { id: string; bucketId: string; patientId: string },
    actor: { id: string; username: string },
    bytes: Buffer,
    desc: string,
    ctx: AuditContext,
  ): Promise<ReportImage> {
    await this.gate.refuseReadOnly(exam.id, exam.bucketId);
    if (bytes.length > KEY_IMAGE_MAX_BYTES) throw new AppError('PayloadTooLarge', 'A key image is at most 5 MB');
    const type = sniffImage(bytes);
    if (!type) throw errors.validation('The key image is not a PNG or JPEG image', { field: 'body' });
    const id = crypto.randomUUID();
    const key = `report-images/${exam.bucketId}/${exam.id}/${id}.${type === 'image/png' ? 'png' : 'jpg'}`;
    await this.blobs.put(key, bytes);
    let row: ReportImageRow;
    try {
      row = await this.db.transaction(async (tx) => {
        // The exam row's lock serializes captures, so two at once cannot pass the limit.
        await lockReportExam(tx, exam.id);
        const n = await countImages(tx, exam.id);
        if (n >= KEY_IMAGE_MAX_COUNT) {
          throw new AppError('ReportImageLimit', `A report holds at most ${KEY_IMAGE_MAX_COUNT} images`, {
            limit: KEY_IMAGE_MAX_COUNT,
          });
        }
        const inserted = await insertImage(tx, {
          id,
          reportId: exam.id,
          bucketId: exam.bucketId,
          blobKey: key,
          contentType: type,
          size: bytes.length,
          desc,
          position: n,
          createdBy: actor.id,
        });
        await writeAudit(tx, ctx, {
          action: 'report.image_add',
          outcome: 'success',
          category: 'phi',
          actorId: actor.id,
          actorUsername: actor.username,
          targetType: 'report',
          targetId: exam.id,
          bucketId: exam.bucketId,
          patientId: exam.patientId,
          details: { imageId: id, size: bytes.length },
        });
        return inserted;
      });
    } catch (err) {
      await this.blobs.delete(key).catch(() => undefined);
      throw err;
    }
    return this.imageOut(row, await this.imageUrl(row));
  }

  /** GET reports/{id}/images (the caller holds exam_get in the report's organization). */
  async images(reportId: string) {
    const rows = await listImages(this.db, reportId);
    return {
      images: await Promise.all(rows.map(async (r) => this.imageOut(r, await this.imageUrl(r)))),
      limit: KEY_IMAGE_MAX_COUNT,
    };
  }

  /** PATCH reports/{id}/images/{imageId}: its description and whether it is printed. */
  async patchImage(reportId: string, imageId: string, change: { desc?: string; isPrinted?: boolean }) {
    const row = await updateImage(this.db, reportId, imageId, change);
    if (!row) throw errors.notFound('Image');
    return this.imageOut(row, await this.imageUrl(row));
  }

  /** POST reports/{id}/image-order: the images in a new order; the list must name each image once. */
  async orderImages(reportId: string, imageIds: string[]) {
    await this.db.transaction(async (tx) => {
      await lockReportExam(tx, reportId);
      const have = new Set(await imageIdsOf(tx, reportId));
      if (
        imageIds.length !== have.size ||
        new Set(imageIds).size !== imageIds.length ||
        !imageIds.every((i) => have.has(i))
      ) {
        throw errors.validation('Name every image of the report exactly once', { field: 'imageIds' });
      }
      await reorderImages(tx, reportId, imageIds);
    });
    return this.images(reportId);
  }

  /** DELETE reports/{id}/images/{imageId} of the organization `bucketId`: the others close the gap. */
  async deleteImage(
    actor: AccountRow,
    { reportId, bucketId }: { reportId: string; bucketId: string },
    imageId: string,
    ctx: AuditContext,
  ): Promise<void> {
    await this.gate.refuseReadOnly(reportId, bucketId);
    const key = await this.db.transaction(async (tx) => {
      await lockReportExam(tx, reportId);
      const gone = await deleteImageRow(tx, reportId, imageId);
      if (!gone) throw errors.notFound('Image');
      await writeAudit(tx, ctx, {
        action: 'report.image_delete',
        outcome: 'success',
        category: 'operation',
        actorId: actor.id,
        actorUsername: actor.username,
        targetType: 'report',
        targetId: reportId,
        bucketId: gone.bucketId,
        details: { imageId },
      });
      return gone.blobKey;
    });
    await this.blobs.delete(key).catch(() => undefined);
  }
}
