import type { DirectLinks, PresignGetOptions, PresignPutOptions, PresignedPut } from './blobs.js';
import type { Clock } from './clock.js';
import type { Signer } from './signed.js';

export const BLOB_UPLOAD_PATH = '/yyp/api/v1/blobs/upload';
export const BLOB_DOWNLOAD_PATH = '/yyp/api/v1/blobs/download';

const PUT_PURPOSE = 'blob-put';
const GET_PURPOSE = 'blob-get';

/** What a valid upload token allows: one key, one content type, at most `limit` bytes. */
export interface PutGrant {
  key: string;
  contentType: string;
  limit: number;
}

export interface GetGrant {
  key: string;
  contentType: string | null;
  fileName: string | null;
  /** seconds since the epoch */
  expires: number;
}

/**
 * Presigned URLs of the local blob store: signed, expiring tokens for yyp's own blob routes.
 * The key, type and size limit live inside the signed token, so a caller cannot point an upload
 * at any other key or widen what it may send.
 */
export class BlobLinks implements DirectLinks {
  constructor(
    private readonly signer: Signer,
    private readonly clock: Clock,
  ) {}

  put(key: string, options: PresignPutOptions): PresignedPut {
    const limit = Math.min(options.size ?? options.maxBytes, options.maxBytes);
    const expiresAt = new Date(this.clock.now().getTime() + options.expiresSeconds * 1000);
    const { token, expires } = this.signer.sign(PUT_PURPOSE, { k: key, t: options.contentType, n: limit }, expiresAt);
    return {
      method: 'PUT',
      url: `${BLOB_UPLOAD_PATH}?token=${encodeURIComponent(token)}`,
      headers: { 'content-type': options.contentType },
      expiresAt: expires,
    };
  }

  get(key: string, options: PresignGetOptions): string {
    const issuedAt = options.issuedAt ?? this.clock.now();
    const expiresAt = new Date(issuedAt.getTime() + options.expiresSeconds * 1000);
    const data: Record<string, unknown> = { k: key };
    if (options.contentType) data.t = options.contentType;
    if (options.fileName) data.f = options.fileName;
    const { token } = this.signer.sign(GET_PURPOSE, data, expiresAt);
    return `${BLOB_DOWNLOAD_PATH}?token=${encodeURIComponent(token)}`;
  }

  verifyPut(token: string): PutGrant | null {
    const p = this.signer.verify(PUT_PURPOSE, token, this.clock.now());
    if (!p || typeof p.k !== 'string' || typeof p.t !== 'string' || typeof p.n !== 'number') return null;
    return { key: p.k, contentType: p.t, limit: p.n };
  }

  verifyGet(token: string): GetGrant | null {
    const p = this.signer.verify(GET_PURPOSE, token, this.clock.now());
    if (!p || typeof p.k !== 'string') return null;
    return {
      key: p.k,
      contentType: typeof p.t === 'string' ? p.t : null,
      fileName: typeof p.f === 'string' ? p.f : null,
      expires: p.x,
    };
  }
}

/**
 * A content-disposition value that survives any file name: an ASCII fallback for old clients
 * and the exact name in RFC 5987 form.
 */
export function contentDisposition(type: 'inline' | 'attachment', fileName: string): string {
  const clean = Array.from(fileName)
    .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f)
    .join('')
    .replace(/[\\/]/g, '_')
    .slice(0, 200);
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_').replace(/["%;]/g, '_') || 'file';
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
