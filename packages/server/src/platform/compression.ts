import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Compressed answers (issue 20 item 15). The web app's files are compressed once, at build time
 * (packages/web/vite.config.ts precompress: a .br and a .gz beside each), and @fastify/static picks
 * the one Accept-Encoding allows (installWebPages). Everything else the server builds in memory —
 * API and DICOMweb JSON, the app shell with its nonce — is compressed here, on the fly, when it is
 * text, at least COMPRESS_MIN_BYTES long and the client accepts br or gzip.
 *
 * Left alone: streamed answers (files, WADO-RS frames and instances, study packages, PDFs, exports:
 * they stay streams, and are binary or compressed already), binary content types (DICOM, images,
 * zip, PDF, octet-stream, multipart), partial answers (Content-Range), and answers that are already
 * encoded or say `no-transform`.
 */

/** Smaller answers are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;

export type ContentCoding = 'br' | 'gzip';

/** Text answers worth compressing: JSON (application/json, application/dicom+json…), text, JS, XML. */
const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:json|[\w.-]+\+json|javascript|xml|[\w.-]+\+xml))/i;

export function isCompressibleType(contentType: unknown): boolean {
  return typeof contentType === 'string' && COMPRESSIBLE.test(contentType);
}

/**
 * The coding to answer with: br or gzip, whichever the client weighs higher (br when equal), or
 * null (identity) when it accepts neither. `*` stands for any coding not named; q=0 refuses one.
 */
export function negotiateEncoding(acceptEncoding: string | string[] | undefined): ContentCoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const item of [acceptEncoding].flat().join(',').split(',')) {
    const [name, ...params] = item.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q') q = Number(value);
    }
    if (Number.isFinite(q) && q >= 0 && q <= 1) weights.set(name, q);
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gzip = Math.max(weightOf('gzip'), weights.get('x-gzip') ?? 0);
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return null;
}

/** Adds accept-encoding to Vary, keeping what is there. */
export function varyAcceptEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const value = current === undefined ? '' : [current].flat().join(', ');
  const names = value
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  if (names.includes('*') || names.includes('accept-encoding')) return;
  void reply.header('vary', value ? `${value}, accept-encoding` : 'accept-encoding');
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Quick settings: an answer is compressed while the client waits (brotli 4 and gzip 6 are within a
 * few percent of their best here at a fraction of the time; the build uses the best).
 */
export function compressAnswer(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  return coding === 'br'
    ? brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzip(body, { level: 6 });
}

/** Compresses the app's in-memory text answers (register at the root, before any route). */
export function installCompression(app: FastifyInstance, minBytes = COMPRESS_MIN_BYTES): void {
  app.addHook('onSend', async (request, reply, payload) => {
    // Streams (files, frames, packages) and empty answers go as they are.
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (!isCompressibleType(reply.getHeader('content-type'))) return payload;
    if (reply.hasHeader('content-encoding') || reply.hasHeader('content-range')) return payload;
    if (/\bno-transform\b/i.test(String(reply.getHeader('cache-control') ?? ''))) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (body.length < minBytes) return payload;
    varyAcceptEncoding(reply);
    const coding = negotiateEncoding(request.headers['accept-encoding']);
    if (!coding) return payload;
    const compressed = await compressAnswer(body, coding);
    reply.removeHeader('content-length');
    void reply.header('content-encoding', coding);
    return compressed;
  });
}
