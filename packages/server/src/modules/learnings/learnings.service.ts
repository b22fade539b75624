import { limitTo, mimeOf } from '../../platform/upload-limits.js';
import { videoDuration } from './learning-duration.js';
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  API_BASE,
  LEARNING_VIDEO_MAX_BYTES,
  LEARNING_VIDEO_TYPES,
  LEARNING_VIDEO_URL_SECONDS,
  type Learning,
  type LearningDetail,
  type LearningList,
  type LearningUpdate,
  type LearningVideoType,
} from '@yyp/contracts';
import type { AccountRow, LearningRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { Signer } from '../../platform/signed.js';
import { sniffVideo, videoRange } from './learning-video.js';
import * as store from './learnings.store.js';

const STREAM_PURPOSE = 'learning-video';
/** How many bytes of an upload are read to recognize its type. */
const SNIFF_BYTES = 128;

const notFound = () => errors.notFound('Learning video');
const tooLarge = (maxBytes: number) =>
  new AppError('PayloadTooLarge', `A learning video may have at most ${maxBytes} bytes`, { maxBytes });
const notAVideo = (declared: string) =>
  new AppError('FileTypeNotAllowed', `A learning video is an MP4 or WebM file; this one is not ${declared}`, {
    accept: [...LEARNING_VIDEO_TYPES],
  });

function present(row: LearningRow): Learning {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    contentType: row.contentType as LearningVideoType,
    size: row.size,
    durationSeconds: row.durationSeconds,
    sortOrder: row.sortOrder,
    published: row.published,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the video route sends: the bytes (200 or 206), or a 416 with no body. */
export type LearningVideoAnswer =
  | { status: 200 | 206; headers: Record<string, string>; stream: Readable }
  | { status: 416; headers: Record<string, string> };

/**
 * Learning videos (issue 27; contracts learning.ts). The platform admin uploads a video as the raw
 * body of POST learnings: its declared type must be MP4 or WebM and its first bytes must say the
 * same, its size at most the limit; it goes into the blob store under a key of its own. Anyone
 * signed in lists the published ones (platform admins all of them); one published video is readable
 * by anyone (/learning/{id} is a public route). Its bytes are streamed with HTTP Range from a signed
 * URL the detail answers, since a <video> element sends no bearer header. Every change is audited.
 */
export class LearningsService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly signer: Signer,
    private readonly clock: Clock,
    private readonly maxBytes = LEARNING_VIDEO_MAX_BYTES,
  ) {}

  async list(account: AccountRow, page: { skip: number; limit: number }): Promise<LearningList> {
    const { rows, count } = await store.listLearnings(this.db, { all: account.isPlatformAdmin, ...page });
    return { items: rows.map(present), count };
  }

  /** One video with its stream URL: a published one for anyone, an unpublished one for platform admins only. */
  async get(caller: AccountRow | null, id: string): Promise<LearningDetail> {
    const admin = caller?.isPlatformAdmin === true;
    const row = admin ? await store.findLearning(this.db, id) : await store.findPublishedLearning(this.db, id);
    if (!row) throw notFound();
    const expiresAt = new Date(this.clock.now().getTime() + LEARNING_VIDEO_URL_SECONDS * 1000);
    // The token names the blob (a replaced or deleted video's URL plays nothing) and whether a
    // platform admin asked (only such a URL plays an unpublished video).
    const { token, expires } = this.signer.sign(STREAM_PURPOSE, { i: row.id, k: row.blobKey, a: admin }, expiresAt);
    return {
      ...present(row),
      videoUrl: `${API_BASE}learnings/${encodeURIComponent(row.id)}/video?token=${encodeURIComponent(token)}`,
      videoUrlExpires: expires,
    };
  }

  /** GET learnings/{id}/video?token: the video's bytes, the range asked (206) or all (200); 416 past its end. */
  async video(id: string, token: string, rangeHeader: string | undefined): Promise<LearningVideoAnswer> {
    const grant = this.signer.verify(STREAM_PURPOSE, token, this.clock.now());
    if (!grant || grant.i !== id || typeof grant.k !== 'string') {
      throw new AppError('LinkInvalid', 'The video link is invalid or has expired; open the video again');
    }
    const row =
      grant.a === true ? await store.findLearning(this.db, id) : await store.findPublishedLearning(this.db, id);
    if (!row || row.blobKey !== grant.k) throw notFound();
    const size = await this.blobs.size(row.blobKey);
    if (size === null) throw notFound();
    const maxAge = Math.max(0, grant.x - Math.floor(this.clock.now().getTime() / 1000));
    const headers: Record<string, string> = {
      'content-type': row.contentType,
      'accept-ranges': 'bytes',
      'cache-control': `private, max-age=${maxAge}`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'",
    };
    const range = videoRange(rangeHeader, size);
    if (range === 'unsatisfiable') {
      return { status: 416, headers: { ...headers, 'content-range': `bytes */${size}`, 'content-length': '0' } };
    }
    if (range) {
      headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
      headers['content-length'] = String(range.end - range.start + 1);
      return { status: 206, headers, stream: this.blobs.stream(row.blobKey, range) };
    }
    headers['content-length'] = String(size);
    return { status: 200, headers, stream: this.blobs.stream(row.blobKey) };
  }

  /** Checks what can be checked before a byte is read: the declared type and size. */
  admit(headers: { contentType?: string | undefined; contentLength?: string | undefined }): LearningVideoType {
    const declared = mimeOf(headers.contentType);
    if (!(LEARNING_VIDEO_TYPES as readonly string[]).includes(declared)) throw notAVideo(declared || 'a video');
    const length = headers.contentLength === undefined ? null : Number(headers.contentLength);
    if (length !== null && length > this.maxBytes) throw tooLarge(this.maxBytes);
    return declared as LearningVideoType;
  }

  /** POST learnings: stores the body, checks its bytes, then records it. A refused upload leaves nothing behind. */
  async upload(
    account: AccountRow,
    meta: { title: string; description: string; published: boolean; sortOrder: number },
    headers: { contentType?: string | undefined; contentLength?: string | undefined },
    body: Readable,
    ctx: AuditContext,
  ): Promise<Learning> {
    const declared = this.admit(headers);
    const id = crypto.randomUUID();
    const key = `learnings/${id}.${declared === 'video/mp4' ? 'mp4' : 'webm'}`;
    const limited = limitTo(this.maxBytes, tooLarge);
    body.once('error', (err) => limited.destroy(err));
    body.pipe(limited);
    let size: number;
    try {
      size = await this.blobs.putStream(key, limited);
    } catch (err) {
      await this.blobs.delete(key).catch(() => undefined);
      throw err;
    }
    try {
      if (size === 0) throw errors.validation('The upload is empty', { problem: 'EmptyFile' });
      const head = await this.readAt(key, 0, Math.min(size, SNIFF_BYTES));
      if (sniffVideo(head) !== declared) throw notAVideo(declared);
      const durationSeconds = await videoDuration(declared, size, (offset, length) =>
        this.readAt(key, offset, Math.max(0, Math.min(length, size - offset))),
      );
      const now = this.clock.now();
      return await this.db.transaction(async (tx) => {
        const row = await store.insertLearning(tx, {
          id,
          title: meta.title,
          description: meta.description,
          blobKey: key,
          contentType: declared,
          size,
          durationSeconds,
          sortOrder: meta.sortOrder,
          published: meta.published,
          createdBy: account.id,
          createdAt: now,
          updatedAt: now,
        });
        await this.audit(tx, ctx, account, 'learning.create', id, {
          title: meta.title,
          contentType: declared,
          size,
          published: meta.published,
        });
        return present(row);
      });
    } catch (err) {
      await this.blobs.delete(key).catch(() => undefined);
      throw err;
    }
  }

  async update(account: AccountRow, id: string, change: LearningUpdate, ctx: AuditContext): Promise<Learning> {
    return this.db.transaction(async (tx) => {
      const before = await store.findLearning(tx, id);
      if (!before) throw notFound();
      const row = await store.updateLearning(tx, id, change, this.clock.now());
      if (!row) throw notFound();
      const changes = Object.fromEntries(
        Object.entries(change)
          .filter(([key, value]) => before[key as keyof typeof change] !== value)
          .map(([key, value]) => [key, { from: before[key as keyof typeof change], to: value }]),
      );
      await this.audit(tx, ctx, account, 'learning.update', id, { changes });
      return present(row);
    });
  }

  async remove(account: AccountRow, id: string, ctx: AuditContext): Promise<void> {
    const row = await this.db.transaction(async (tx) => {
      const deleted = await store.deleteLearning(tx, id);
      if (!deleted) throw notFound();
      await this.audit(tx, ctx, account, 'learning.delete', id, { title: deleted.title });
      return deleted;
    });
    // After the commit: a failed delete leaves a file no row names, never a row without its file.
    await this.blobs.delete(row.blobKey).catch(() => undefined);
  }

  /** `length` bytes of a stored file from `offset` (none for an empty range). */
  private async readAt(key: string, offset: number, length: number): Promise<Uint8Array> {
    if (length <= 0) return new Uint8Array(0);
    if (this.blobs.read) return this.blobs.read(key, offset, length);
    const chunks: Buffer[] = [];
    for await (const chunk of this.blobs.stream(key, { start: offset, end: offset + length - 1 })) {
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  private audit(db: Db, ctx: AuditContext, account: AccountRow, action: string, id: string, details: object) {
    return writeAudit(db, ctx, {
      action,
      outcome: 'success',
      category: 'security',
      actorId: account.id,
      actorUsername: account.username,
      targetType: 'learning',
      targetId: id,
      details: { ...details },
    });
  }
}
