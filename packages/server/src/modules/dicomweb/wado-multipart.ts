import { closing, multipartBoundary, partHeader } from '../../dicom/multipart.js';
import { AppError } from '../../platform/errors.js';
import type { Frame } from './frame-source.js';

const CRLF = Buffer.from('\r\n');

/** The frame numbers of a WADO-RS frames path ("1,3,5"): 1-based integers, at most 1000 of them. */
export function frameNumbers(list: string): number[] {
  const numbers = list.split(',').map((f) => Number.parseInt(f, 10));
  if (numbers.some((n) => !Number.isInteger(n) || n < 1) || numbers.length > 1000) {
    throw new AppError('ValidationError', 'Frame numbers are 1-based integers');
  }
  return numbers;
}

/** A part's Content-Location, the URL of what it holds (PS3.18 8.6, RFC 2616 3.7.2), where one is given. */
const located = (location: string | undefined): Record<string, string> =>
  location ? { 'Content-Location': location } : {};

/**
 * Frames of one instance as a multipart/related body, a part each, typed with their transfer
 * syntax: native frames are little endian whatever the file's byte order (frameBytes), and say so.
 * `locations` are the frames' own URLs, in the same order, for each part's Content-Location.
 */
export function framesMultipart(
  frames: Frame[],
  locations: readonly string[] = [],
): { body: Buffer; boundary: string; transferSyntax: string } {
  const boundary = multipartBoundary();
  const transferSyntax = frames[0]!.transferSyntaxUid;
  const type = `${frames[0]!.mediaType ?? 'application/octet-stream'}; transfer-syntax=${transferSyntax}`;
  const chunks: Buffer[] = [];
  frames.forEach((f, i) => {
    if (i > 0) chunks.push(CRLF);
    chunks.push(
      partHeader(boundary, type, located(locations[i])),
      Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength),
    );
  });
  chunks.push(closing(boundary));
  return { body: Buffer.concat(chunks), boundary, transferSyntax };
}

/**
 * A bulk data value as a multipart/related body of one application/octet-stream part; `location`
 * is the BulkDataURI it was asked by, for the part's Content-Location.
 */
export function bulkDataMultipart(value: Uint8Array, location?: string): { body: Buffer; boundary: string } {
  const boundary = multipartBoundary();
  const body = Buffer.concat([
    partHeader(boundary, 'application/octet-stream', located(location)),
    Buffer.from(value),
    closing(boundary),
  ]);
  return { body, boundary };
}
