import type { LearningVideoType } from '@yyp/contracts';

/** Reads `length` bytes of the stored file from `offset` (fewer at its end). */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array>;

/** How far a WebM file is read for its Info element (it precedes the first cluster). */
const WEBM_HEAD_BYTES = 64 * 1024;
/** At most this many top-level boxes of an MP4 file are walked looking for `moov`. */
const MP4_MAX_BOXES = 64;

/**
 * A video's duration in whole seconds from its own header, or null when it does not say (a WebM
 * written live by MediaRecorder has no Duration) or cannot be read: an MP4's `moov/mvhd` box
 * (timescale and duration; `moov` may sit after the media data, so the top-level boxes are walked),
 * a WebM's Segment/Info (TimecodeScale and Duration). The upload stores it; the admin may correct it.
 */
export async function videoDuration(type: LearningVideoType, size: number, readAt: ReadAt): Promise<number | null> {
  try {
    const seconds =
      type === 'video/mp4'
        ? await mp4Duration(size, readAt)
        : webmDuration(await readAt(0, Math.min(size, WEBM_HEAD_BYTES)));
    return seconds !== null && Number.isFinite(seconds) && seconds >= 0 && seconds <= 24 * 3600
      ? Math.round(seconds)
      : null;
  } catch {
    return null;
  }
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/** A box's header at `offset`: its type, header length and whole size (to the file's end for size 0). */
async function boxAt(readAt: ReadAt, offset: number, end: number) {
  const head = await readAt(offset, 16);
  if (head.length < 8) return null;
  const size32 = view(head).getUint32(0);
  const type = ascii(head, 4, 8);
  if (size32 === 1) {
    if (head.length < 16) return null;
    return { type, header: 16, size: Number(view(head).getBigUint64(8)) };
  }
  return { type, header: 8, size: size32 === 0 ? end - offset : size32 };
}

async function mp4Duration(size: number, readAt: ReadAt): Promise<number | null> {
  let offset = 0;
  for (let i = 0; i < MP4_MAX_BOXES && offset + 8 <= size; i++) {
    const box = await boxAt(readAt, offset, size);
    if (!box || box.size < box.header) return null;
    if (box.type === 'moov') {
      const moovEnd = Math.min(size, offset + box.size);
      let child = offset + box.header;
      for (let j = 0; j < MP4_MAX_BOXES && child + 8 <= moovEnd; j++) {
        const inner = await boxAt(readAt, child, moovEnd);
        if (!inner || inner.size < inner.header) return null;
        if (inner.type === 'mvhd') return mvhdSeconds(await readAt(child + inner.header, 32));
        child += inner.size;
      }
      return null;
    }
    offset += box.size;
  }
  return null;
}

/** mvhd: version and flags, then (v0) 32-bit or (v1) 64-bit times, the timescale and the duration. */
function mvhdSeconds(body: Uint8Array): number | null {
  const v = view(body);
  const version = body[0];
  const [timescale, duration] =
    version === 1 && body.length >= 32
      ? [v.getUint32(20), Number(v.getBigUint64(24))]
      : version === 0 && body.length >= 20
        ? [v.getUint32(12), v.getUint32(16)]
        : [0, 0];
  if (timescale === 0 || duration === 0xffffffff) return null;
  return duration / timescale;
}

const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const CLUSTER = 0x1f43b675;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;

/** An EBML variable-length integer at `at`: its value (the length marker kept for IDs) and length. */
function vint(
  bytes: Uint8Array,
  at: number,
  keepMarker: boolean,
): { value: number; length: number; unknown: boolean } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (length > 8 || at + length > bytes.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + bytes[at + i]!;
    allOnes &&= bytes[at + i] === 0xff;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

function webmDuration(bytes: Uint8Array): number | null {
  let scale = 1_000_000; // nanoseconds per tick, the default TimecodeScale
  let duration: number | null = null;
  // Descend into Segment and Info; skip every other element; stop at the first cluster.
  let at = 0;
  let infoEnd = -1;
  while (at < bytes.length) {
    const id = vint(bytes, at, true);
    const size = id && vint(bytes, at + id.length, false);
    if (!id || !size) break;
    const body = at + id.length + size.length;
    if (id.value === CLUSTER) break;
    if (id.value === SEGMENT) {
      at = body;
      continue;
    }
    if (id.value === INFO) {
      infoEnd = size.unknown ? bytes.length : body + size.value;
      at = body;
      continue;
    }
    if (size.unknown) break;
    if (at < infoEnd && id.value === TIMECODE_SCALE && size.value >= 1 && size.value <= 8) {
      scale = 0;
      for (let i = 0; i < size.value; i++) scale = scale * 256 + bytes[body + i]!;
    }
    if (at < infoEnd && id.value === DURATION && body + size.value <= bytes.length) {
      if (size.value === 4) duration = view(bytes).getFloat32(body);
      else if (size.value === 8) duration = view(bytes).getFloat64(body);
    }
    at = body + size.value;
  }
  return duration === null || scale === 0 ? null : (duration * scale) / 1e9;
}
