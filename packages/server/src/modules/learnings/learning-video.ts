import type { LearningVideoType } from '@yyp/contracts';

/**
 * The video type the first bytes of a file say, or null when they are neither MP4 nor WebM: an
 * ISO base media file opens with a box whose type (bytes 4–7) is `ftyp`; a WebM file with the EBML
 * magic 1A 45 DF A3 and a DocType element (42 82) naming `webm` in its header (a Matroska file
 * naming `matroska` is not WebM).
 */
export function sniffVideo(head: Uint8Array): LearningVideoType | null {
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') return 'video/mp4';
  if (head.length >= 8 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    const window = head.subarray(0, Math.min(head.length, 128));
    for (let i = 4; i + 2 < window.length; i++) {
      if (window[i] !== 0x42 || window[i + 1] !== 0x82) continue;
      // The DocType's size is an EBML variable-length integer; a one-byte size is what writers use.
      const sizeByte = window[i + 2]!;
      if ((sizeByte & 0x80) === 0) return null;
      const size = sizeByte & 0x7f;
      return ascii(window, i + 3, i + 3 + size) === 'webm' ? 'video/webm' : null;
    }
  }
  return null;
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, Math.min(end, bytes.length)));
}

/**
 * The one byte range a `Range` header asks of a file of `size` bytes (RFC 9110 §14): null to answer
 * the whole file (no header, another unit, several ranges, a malformed value), 'unsatisfiable' for a
 * range that starts past the end (416), else the inclusive [start, end], clipped to the file.
 */
export function videoRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== '' && Number(m[2]) < start) return null; // invalid: ignored, the whole file
  if (start >= size) return 'unsatisfiable';
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  return { start, end };
}
