import type { Readable } from 'node:stream';
import { canEncode, CodecError, decodeFrame, encodeFrame, nextTurn, pixelFrames } from '../../dicom/codecs/index.js';
import { frameRange, nativeFrameLayout, type FrameLayout } from '../../dicom/frames.js';
import { frameBytes } from '../../dicom/json-model.js';
import type { BlobStore } from '../../platform/blobs.js';
import { errors } from '../../platform/errors.js';
import type { StoredFile } from './frames.store.js';

export interface Frame {
  bytes: Uint8Array;
  transferSyntaxUid: string;
  /** The part's media type when the request chose one (accept.ts frameAnswer); else application/octet-stream. */
  mediaType?: string;
}

/** Native frames are served as Explicit VR Little Endian bytes, as frameBytes serves them. */
const EXPLICIT_VR_LITTLE_ENDIAN = '1.2.840.10008.1.2.1';

/** Layouts remembered; past this the least recently used is forgotten (about 100 bytes each). */
const LAYOUTS_MAX = 100_000;

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * The frames of stored instances (issue 20 item 16). The first read of a file reads it whole and
 * remembers where its frames lie when they can be served in place (dicom/frames.ts: native little
 * endian); later reads fetch only the frame's bytes. A stored file never changes under its blob
 * key (each arrival gets a new key, and the key and size come from the instance's row at every
 * request), so a remembered layout is never stale; what may be read at all is decided by the row
 * look-up before this is asked. Other files (compressed, big endian) are read whole each time and
 * their frames cut by frameBytes.
 */
export class FrameSource {
  private readonly layouts = new Map<string, FrameLayout>();

  constructor(
    private readonly blobs: BlobStore,
    private readonly max = LAYOUTS_MAX,
  ) {}

  /** Frames `numbers` (1-based) of the file; a frame past the last is a 404. */
  async read(file: StoredFile, numbers: number[]): Promise<Frame[]> {
    const key = `${file.blobKey}|${file.size}`;
    try {
      const layout = this.layouts.get(key);
      if (layout) {
        this.layouts.delete(key); // most recently used last
        this.layouts.set(key, layout);
        return await Promise.all(numbers.map((n) => this.inPlace(file.blobKey, layout, n)));
      }
      // The row gives the file's size: one positional read where the store has it.
      const bytes = this.blobs.read
        ? await this.blobs.read(file.blobKey, 0, file.size)
        : await this.blobs.get(file.blobKey);
      const found = nativeFrameLayout(bytes);
      if (!found) return numbers.map((n) => frameBytes(bytes, n));
      this.remember(key, found);
      return numbers.map((n) => {
        const { start, end } = frameRange(found, n);
        return { bytes: bytes.subarray(start, end), transferSyntaxUid: EXPLICIT_VR_LITTLE_ENDIAN };
      });
    } catch (err) {
      if (err instanceof RangeError) throw errors.notFound('Frame');
      throw err;
    }
  }

  /**
   * Frames `numbers` (1-based) of the file in another transfer syntax (issue 28 item 7): the file
   * read whole, each frame decoded and encoded (dicom/codecs). CodecError when the pixels cannot
   * be written so; a frame past the last is a 404.
   */
  async transcoded(file: StoredFile, numbers: number[], transferSyntaxUid: string): Promise<Frame[]> {
    const bytes = this.blobs.read
      ? await this.blobs.read(file.blobKey, 0, file.size)
      : await this.blobs.get(file.blobKey);
    const source = pixelFrames(bytes);
    if (numbers.some((n) => n > source.frames)) throw errors.notFound('Frame');
    const pixel = source.pixel;
    if (!canEncode(transferSyntaxUid, pixel)) {
      throw new CodecError(`these pixels cannot be written as ${transferSyntaxUid}`, 'unsupported-pixels');
    }
    const out: Frame[] = [];
    for (const [k, n] of numbers.entries()) {
      if (k > 0) await nextTurn();
      const decoded = await decodeFrame(source.frame(n - 1), source.frameSyntax, pixel);
      const photometric = { ...pixel, photometricInterpretation: decoded.photometricInterpretation };
      out.push({ bytes: await encodeFrame(decoded, photometric, transferSyntaxUid), transferSyntaxUid });
    }
    return out;
  }

  /** How many layouts are remembered (tests). */
  get size(): number {
    return this.layouts.size;
  }

  private async inPlace(blobKey: string, layout: FrameLayout, n: number): Promise<Frame> {
    const { start, end } = frameRange(layout, n);
    const bytes = this.blobs.read
      ? await this.blobs.read(blobKey, start, end - start)
      : await collect(this.blobs.stream(blobKey, { start, end: end - 1 }));
    if (bytes.length !== end - start) throw new Error(`frame ${n} of ${blobKey}: read ${bytes.length} bytes`);
    return { bytes, transferSyntaxUid: EXPLICIT_VR_LITTLE_ENDIAN };
  }

  private remember(key: string, layout: FrameLayout): void {
    this.layouts.set(key, layout);
    if (this.layouts.size > this.max) this.layouts.delete(this.layouts.keys().next().value!);
  }
}
