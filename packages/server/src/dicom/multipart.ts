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
  const splitter = new MultipartSplitter(boundary, maxParts);
  const parts = splitter.push(body);
  splitter.end();
  return parts;
}

const NOTHING: Buffer = Buffer.alloc(0);

/** Header bytes of one part at most (a STOW-RS part header is a line or two). */
const MAX_PART_HEADER_BYTES = 16 * 1024;

function readHeaders(raw: Buffer): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of raw.toString('latin1').split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

/**
 * Splits a multipart/related body as it streams in, as parseMultipart does a buffered one: each
 * part is answered as soon as the delimiter after it has arrived, so a STOW-RS request's first
 * instances are stored while the rest is still on its way, and only the part being received is
 * held (never the whole body). A part's bytes are copied once, into a buffer of their own.
 */
export class MultipartSplitter {
  private readonly delimiter: Buffer;
  private state: 'preamble' | 'afterDelimiter' | 'headers' | 'body' | 'done' = 'preamble';
  /** bytes not yet placed (preamble tail, delimiter suffix, header bytes) */
  private pending: Buffer = NOTHING;
  /** the current part's body so far, as received */
  private pieces: Buffer[] = [];
  private piecesLength = 0;
  private headers: Record<string, string> = {};
  private count = 0;

  constructor(
    boundary: string,
    private readonly maxParts = 10_000,
  ) {
    this.delimiter = Buffer.from(`--${boundary}`, 'latin1');
  }

  /** Feeds the next chunk; answers the parts it completed, in order. */
  push(chunk: Buffer): Part[] {
    const out: Part[] = [];
    let data = chunk;
    while (data.length > 0 && this.state !== 'done') {
      data = this.step(data, out);
    }
    return out;
  }

  /** The body ended: a part without its closing delimiter is dropped, as parseMultipart does. */
  end(): void {
    this.state = 'done';
    this.pieces = [];
    this.pending = NOTHING;
  }

  /** The bytes held back from earlier chunks followed by `data` (held back no longer). */
  private joined(data: Buffer): Buffer {
    const all = this.pending.length ? Buffer.concat([this.pending, data]) : data;
    this.pending = NOTHING;
    return all;
  }

  /** Keeps `bytes` (a copy: the chunk they came in is not kept) until the next chunk. */
  private holdBack(bytes: Buffer): Buffer {
    this.pending = Buffer.from(bytes);
    return NOTHING;
  }

  private step(data: Buffer, out: Part[]): Buffer {
    const d = this.delimiter.length;
    switch (this.state) {
      case 'preamble': {
        const joined = this.joined(data);
        const at = joined.indexOf(this.delimiter);
        if (at < 0) return this.holdBack(joined.subarray(Math.max(0, joined.length - (d - 1))));
        this.state = 'afterDelimiter';
        return joined.subarray(at + d);
      }
      case 'afterDelimiter': {
        const joined = this.joined(data);
        if (joined.length < 2) return this.holdBack(joined);
        // "--" after the delimiter closes the body; a CRLF starts the next part's headers.
        if (joined[0] === 0x2d && joined[1] === 0x2d) {
          this.state = 'done';
          return NOTHING;
        }
        this.state = 'headers';
        return joined[0] === 0x0d && joined[1] === 0x0a ? joined.subarray(2) : joined;
      }
      case 'headers': {
        const joined = this.joined(data);
        // A part without headers starts with the empty line at once.
        const end = joined[0] === 0x0d && joined[1] === 0x0a ? -2 : joined.indexOf('\r\n\r\n');
        if (end === -1 || (end === -2 && joined.length < 2)) {
          if (joined.length > MAX_PART_HEADER_BYTES) throw new Error('a part header is too long');
          return this.holdBack(joined);
        }
        this.headers = end === -2 ? {} : readHeaders(joined.subarray(0, end));
        this.state = 'body';
        return joined.subarray(end === -2 ? 2 : end + 4);
      }
      case 'body':
        return this.body(data, out);
      default:
        return NOTHING;
    }
  }

  /** Body bytes until the next delimiter, which may begin in bytes already received. */
  private body(data: Buffer, out: Part[]): Buffer {
    const d = this.delimiter.length;
    let end = -1; // where the delimiter starts, counted from the start of the part's body
    let after = NOTHING;
    const held = Math.min(this.piecesLength, d - 1);
    if (held > 0) {
      const seam = Buffer.concat([this.lastBytes(held), data.subarray(0, d - 1)]);
      const at = seam.indexOf(this.delimiter);
      if (at >= 0 && at < held) {
        end = this.piecesLength - held + at;
        after = data.subarray(d - (held - at));
      }
    }
    if (end < 0) {
      const at = data.indexOf(this.delimiter);
      if (at < 0) {
        this.pieces.push(data);
        this.piecesLength += data.length;
        return NOTHING;
      }
      this.pieces.push(data.subarray(0, at));
      this.piecesLength += at;
      end = this.piecesLength;
      after = data.subarray(at + d);
    }
    let body =
      this.pieces.length === 1 && this.pieces[0]!.length === end ? this.pieces[0]! : Buffer.concat(this.pieces, end);
    if (body.length >= 2 && body[body.length - 2] === 0x0d && body[body.length - 1] === 0x0a) {
      body = body.subarray(0, body.length - 2);
    }
    out.push({ headers: this.headers, body });
    if (++this.count > this.maxParts) throw new Error(`more than ${this.maxParts} parts`);
    this.pieces = [];
    this.piecesLength = 0;
    this.state = 'afterDelimiter';
    return after;
  }

  private lastBytes(n: number): Buffer {
    const tail: Buffer[] = [];
    for (let i = this.pieces.length - 1, need = n; i >= 0 && need > 0; i--) {
      const p = this.pieces[i]!;
      tail.unshift(p.subarray(Math.max(0, p.length - need)));
      need -= Math.min(need, p.length);
    }
    return Buffer.concat(tail);
  }
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
