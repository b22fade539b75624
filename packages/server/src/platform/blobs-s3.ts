import {
  ListObjectsV2Command,
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { contentDisposition } from './blob-links.js';
import {
  assertSafeKey,
  type BlobStore,
  type PresignGetOptions,
  type PresignPutOptions,
  type PresignedPut,
} from './blobs.js';
import { systemClock, type Clock } from './clock.js';

export interface S3Settings {
  bucket: string;
  region: string;
  /** unset: AWS S3 itself */
  endpoint?: string | undefined;
  /** the endpoint browsers reach, when it differs from the one the server uses (presigned URLs) */
  publicEndpoint?: string | undefined;
  /** unset: the SDK's default chain (AWS_* variables, instance roles) */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** bucket in the path (MinIO and most S3-compatible stores) instead of the host name */
  forcePathStyle: boolean;
}

export interface S3StoreOptions extends S3Settings {
  /** putStream sends parts of this size once a blob outgrows one part (S3's minimum is 5 MiB) */
  partSize?: number;
  clock?: Clock;
}

const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
const MIN_PART_SIZE = 5 * 1024 * 1024;

function clientFor(settings: S3Settings, endpoint: string | undefined): S3Client {
  return new S3Client({
    region: settings.region,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
    // No CRC32 headers nobody asked for: many S3-compatible stores reject them, and a browser
    // holding a presigned URL could not compute them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** The local store's "no such file" error, so callers see one kind of missing blob. */
function missing(key: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`no blob at ${key}`);
  err.code = 'ENOENT';
  return err;
}

/**
 * The blob store on S3 or an S3-compatible server (DESIGN.md "two stores"). Every write is one
 * PUT or one completed multipart upload, both all-or-nothing: a reader sees the whole blob or
 * none of it. Presigned URLs send browsers straight to the bucket.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  /** signs URLs with the endpoint browsers reach */
  private readonly presigner: S3Client;
  private readonly bucket: string;
  private readonly partSize: number;
  private readonly clock: Clock;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    this.client = clientFor(options, options.endpoint);
    this.presigner =
      options.publicEndpoint && options.publicEndpoint !== options.endpoint
        ? clientFor(options, options.publicEndpoint)
        : this.client;
    this.partSize = Math.max(options.partSize ?? DEFAULT_PART_SIZE, MIN_PART_SIZE);
    this.clock = options.clock ?? systemClock;
  }

  /** Fails with a short reason when the bucket cannot be reached with these settings. */
  async checkBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
      const status = e.$metadata?.httpStatusCode;
      throw new Error(
        `S3 bucket "${this.bucket}" is not reachable: ${e.name ?? 'error'}${status ? ` (HTTP ${status})` : ''}`,
        { cause: err },
      );
    }
  }

  /** Every key under `prefix` (yyp reindex), page by page. */
  async *keys(prefix: string): AsyncGenerator<string> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${prefix}/`, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) yield o.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    assertSafeKey(key);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data, ContentLength: data.byteLength }),
    );
  }

  /** An object PUT is atomic already: the same as put. */
  putNew(key: string, data: Uint8Array): Promise<void> {
    return this.put(key, data);
  }

  /**
   * A blob of one part is one PUT; a larger one is sent part by part as it arrives (multipart
   * upload), so memory holds at most one part whatever the size, and the source is read no faster
   * than S3 takes it. A failure aborts the multipart upload: nothing becomes visible.
   */
  async putStream(key: string, source: Readable): Promise<number> {
    assertSafeKey(key);
    const pending: Buffer[] = [];
    let pendingBytes = 0;
    let total = 0;
    let uploadId: string | undefined;
    const parts: CompletedPart[] = [];
    const sendPart = async () => {
      uploadId ??= (await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key })))
        .UploadId;
      const body = Buffer.concat(pending, pendingBytes);
      pending.length = 0;
      pendingBytes = 0;
      const PartNumber = parts.length + 1;
      const { ETag } = await this.client.send(
        new UploadPartCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber,
          Body: body,
          ContentLength: body.length,
        }),
      );
      parts.push({ ETag, PartNumber });
    };
    try {
      for await (const chunk of source) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        pending.push(buf);
        pendingBytes += buf.length;
        total += buf.length;
        if (pendingBytes >= this.partSize) await sendPart();
      }
      if (uploadId === undefined) {
        await this.put(key, Buffer.concat(pending, pendingBytes));
        return total;
      }
      if (pendingBytes > 0) await sendPart();
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
      return total;
    } catch (err) {
      source.destroy();
      if (uploadId !== undefined) {
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }))
          .catch(() => undefined);
      }
      throw err;
    }
  }

  /** The file streamed up (one part in memory at a time), then removed. */
  async putFile(key: string, file: string): Promise<void> {
    await this.putStream(key, fs.createReadStream(file));
    await fsp.rm(file, { force: true });
  }

  async get(key: string): Promise<Buffer> {
    assertSafeKey(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return Buffer.from(await res.Body!.transformToByteArray());
    } catch (err) {
      throw isNotFound(err) ? missing(key) : err;
    }
  }

  stream(key: string, range?: { start: number; end: number }): Readable {
    assertSafeKey(key);
    const out = new PassThrough();
    this.client
      .send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      )
      .then(async (res) => {
        const body = res.Body as Readable;
        // The reader went away before the answer came: free the connection.
        if (out.destroyed) return void body.destroy();
        await pipeline(body, out);
      })
      .catch((err: unknown) => out.destroy(isNotFound(err) ? missing(key) : (err as Error)));
    return out;
  }

  async size(key: string): Promise<number | null> {
    assertSafeKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return res.ContentLength ?? 0;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /**
   * Signs content-type and, with a size, content-length: S3 then refuses any other type or
   * length (a presigned PUT cannot say "at most"; the policy call asks for the exact size).
   */
  async presignPut(key: string, options: PresignPutOptions): Promise<PresignedPut> {
    assertSafeKey(key);
    if (options.size !== undefined && options.size > options.maxBytes) {
      throw new RangeError(`size ${options.size} is over the limit of ${options.maxBytes}`);
    }
    const signedAt = this.clock.now();
    const url = await getSignedUrl(
      this.presigner,
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ContentType: options.contentType,
        ...(options.size !== undefined ? { ContentLength: options.size } : {}),
      }),
      {
        expiresIn: options.expiresSeconds,
        signingDate: signedAt,
        signableHeaders: new Set(['content-type', 'content-length']),
      },
    );
    return {
      method: 'PUT',
      url,
      headers: { 'content-type': options.contentType },
      expiresAt: Math.floor(signedAt.getTime() / 1000) + options.expiresSeconds,
    };
  }

  async presignGet(key: string, options: PresignGetOptions): Promise<string> {
    assertSafeKey(key);
    return getSignedUrl(
      this.presigner,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ...(options.contentType ? { ResponseContentType: options.contentType } : {}),
        ...(options.fileName ? { ResponseContentDisposition: contentDisposition('attachment', options.fileName) } : {}),
      }),
      { expiresIn: options.expiresSeconds, signingDate: options.issuedAt ?? this.clock.now() },
    );
  }

  destroy(): void {
    this.client.destroy();
    if (this.presigner !== this.client) this.presigner.destroy();
  }
}
