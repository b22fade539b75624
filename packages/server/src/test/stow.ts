import { closing, partHeader } from '../dicom/multipart.js';
import type { TestApp } from './harness.js';

/** A STOW-RS body: each file one application/dicom part of a multipart/related payload. */
export function dicomMultipart(files: Buffer[], boundary = 'stowtest'): { payload: Buffer; type: string } {
  const chunks: Buffer[] = [];
  files.forEach((f, i) => {
    if (i > 0) chunks.push(Buffer.from('\r\n'));
    chunks.push(partHeader(boundary, 'application/dicom'), f);
  });
  chunks.push(closing(boundary));
  return {
    payload: Buffer.concat(chunks),
    type: `multipart/related; type="application/dicom"; boundary=${boundary}`,
  };
}

/** A STOW-RS request of `files` to the test app (`url` the studies resource unless given). */
export function injectStow(
  t: TestApp,
  token: string,
  files: Buffer[],
  opts: { url?: string; boundary?: string; accept?: string } = {},
) {
  const body = dicomMultipart(files, opts.boundary);
  return t.app.inject({
    method: 'POST',
    url: opts.url ?? '/dicom-web/studies',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': body.type,
      ...(opts.accept ? { accept: opts.accept } : {}),
    },
    payload: body.payload,
  });
}
