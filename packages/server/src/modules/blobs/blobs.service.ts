import { limitTo, mimeOf } from '../../platform/upload-limits.js';
import type { Readable } from 'node:stream';
import { contentDisposition, type BlobLinks } from '../../platform/blob-links.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, errors } from '../../platform/errors.js';

const linkInvalid = () => new AppError('LinkInvalid', 'The link is invalid or has expired; ask for a new one');
const tooLarge = (maxBytes: number) =>
  new AppError('PayloadTooLarge', `The file is larger than this upload link accepts (${maxBytes} bytes)`, {
    maxBytes,
  });

/** One byte range of `bytes=a-b`, `bytes=a-` or `bytes=-n`; null for anything else (answer it whole). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || size === 0 || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  return start <= end && start < size ? { start, end } : null;
}

export interface BlobDownload {
  stream: Readable;
  status: 200 | 206;
  headers: Record<string, string>;
}

/**
 * The local store's stand-in for presigned URLs (DESIGN.md "two stores"): a PUT with a valid
 * upload token writes exactly its key, with its content type, up to its size; a GET with a valid
 * download token reads its key. The token is the only credential.
 */
export class BlobTransferService {
  constructor(
    private readonly blobs: BlobStore,
    private readonly links: BlobLinks,
    private readonly clock: Clock,
  ) {}

  /** Checks everything that can be checked before a byte is read. */
  admit(token: string, headers: { contentType?: string | undefined; contentLength?: string | undefined }) {
    const grant = this.links.verifyPut(token);
    if (!grant) throw linkInvalid();
    if (mimeOf(headers.contentType) !== grant.contentType) {
      throw new AppError('FileTypeNotAllowed', `This upload link accepts ${grant.contentType} only`, {
        accept: [grant.contentType],
      });
    }
    const declared = headers.contentLength === undefined ? null : Number(headers.contentLength);
    if (declared !== null && declared > grant.limit) throw tooLarge(grant.limit);
    return grant;
  }

  /** Stores the body atomically: a refused or broken upload leaves nothing behind. */
  async receive(
    token: string,
    headers: { contentType?: string | undefined; contentLength?: string | undefined },
    body: Readable,
  ): Promise<number> {
    const grant = this.admit(token, headers);
    // Piped, not pipelined: a refused body is left unread (the answer closes the connection)
    // rather than destroying the socket before the refusal is sent.
    const limited = limitTo(grant.limit, tooLarge);
    body.once('error', (err) => limited.destroy(err));
    body.pipe(limited);
    const size = await this.blobs.putStream(grant.key, limited);
    if (size === 0) {
      await this.blobs.delete(grant.key);
      throw errors.validation('The upload is empty', { problem: 'EmptyFile' });
    }
    return size;
  }

  async open(token: string, rangeHeader: string | undefined): Promise<BlobDownload> {
    const grant = this.links.verifyGet(token);
    if (!grant) throw linkInvalid();
    const size = await this.blobs.size(grant.key);
    if (size === null) throw errors.notFound('File');
    const contentType = grant.contentType ?? 'application/octet-stream';
    const maxAge = Math.max(0, grant.expires - Math.floor(this.clock.now().getTime() / 1000));
    const headers: Record<string, string> = {
      'content-type': contentType,
      'accept-ranges': 'bytes',
      // Uploaded files never run as a page of this origin.
      'content-security-policy': "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
      'cache-control': `private, max-age=${maxAge}`,
    };
    if (grant.fileName) headers['content-disposition'] = contentDisposition('attachment', grant.fileName);
    else if (!contentType.startsWith('image/')) headers['content-disposition'] = 'attachment';
    const range = parseRange(rangeHeader, size);
    if (range) {
      headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
      headers['content-length'] = String(range.end - range.start + 1);
      return { stream: this.blobs.stream(grant.key, range), status: 206, headers };
    }
    headers['content-length'] = String(size);
    return { stream: this.blobs.stream(grant.key), status: 200, headers };
  }
}
