/**
 * multipart/related (RFC 2387) as DICOMweb uses it: STOW-RS request bodies and WADO-RS answers.
 */
export interface Part {
  headers: Record<string, string>;
  body: Buffer;
}

export function boundaryOf(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/** Splits a buffered multipart body; refuses more than maxParts parts. */
export function parseMultipart(body: Buffer, boundary: string, maxParts = 10_000): Part[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let pos = body.indexOf(delimiter);
  if (pos < 0) return parts;
  while (pos >= 0) {
    let start = pos + delimiter.length;
    // "--" after the delimiter closes the body.
    if (body[start] === 0x2d && body[start + 1] === 0x2d) break;
    if (body[start] === 0x0d && body[start + 1] === 0x0a) start += 2;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    let end = next;
    if (body[end - 2] === 0x0d && body[end - 1] === 0x0a) end -= 2;
    const headerEnd = body.indexOf('\r\n\r\n', start);
    if (headerEnd < 0 || headerEnd > end) {
      pos = next;
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of body.subarray(start, headerEnd).toString('latin1').split('\r\n')) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    parts.push({ headers, body: body.subarray(headerEnd + 4, end) });
    if (parts.length > maxParts) throw new Error(`more than ${maxParts} parts`);
    pos = next;
  }
  return parts;
}

export function multipartBoundary(): string {
  return `yyp-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export function partHeader(boundary: string, contentType: string, extra: Record<string, string> = {}): Buffer {
  const lines = [
    `--${boundary}`,
    `Content-Type: ${contentType}`,
    ...Object.entries(extra).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ];
  return Buffer.from(lines.join('\r\n'), 'latin1');
}

export function closing(boundary: string): Buffer {
  return Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1');
}
