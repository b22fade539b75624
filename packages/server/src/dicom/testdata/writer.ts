/**
 * Part 10 files for synthetic data: the dataset writer is the production one
 * (dicom/dataset-writer.ts); this adds the file meta information the generator writes.
 */
import { DatasetBuilder, EXPLICIT_VR_LE, type TransferSyntax, header, tag } from '../dataset-writer.js';

export * from '../dataset-writer.js';

export const IMPLEMENTATION_CLASS_UID = '1.2.826.0.1.3680043.10.1187.1.1';
export const IMPLEMENTATION_VERSION_NAME = 'YYP_TESTDATA_1';

export interface Part10Input {
  sopClassUid: string;
  sopInstanceUid: string;
  transferSyntax: TransferSyntax;
  dataset: DatasetBuilder;
  /** Appended after the dataset as (7FE0,0010); kept apart so callers can reuse a scratch buffer. */
  pixelData?: { vr: 'OB' | 'OW'; bytes: Uint8Array };
}

/** Preamble, "DICM", group 0002 (always explicit VR LE), then the dataset. */
export function encodePart10(input: Part10Input): Buffer {
  const meta = new DatasetBuilder()
    .bytes(tag(0x0002, 0x0001), 'OB', Buffer.from([0, 1]))
    .text(tag(0x0002, 0x0002), 'UI', input.sopClassUid)
    .text(tag(0x0002, 0x0003), 'UI', input.sopInstanceUid)
    .text(tag(0x0002, 0x0010), 'UI', input.transferSyntax)
    .text(tag(0x0002, 0x0012), 'UI', IMPLEMENTATION_CLASS_UID)
    .text(tag(0x0002, 0x0013), 'SH', IMPLEMENTATION_VERSION_NAME)
    .encode(true);
  const metaLength = meta.reduce((n, b) => n + b.length, 0);
  const groupLength = new DatasetBuilder().uint32(tag(0x0002, 0x0000), metaLength).encode(true);

  const explicitVr = input.transferSyntax === EXPLICIT_VR_LE;
  const chunks: Uint8Array[] = [Buffer.alloc(128), Buffer.from('DICM', 'latin1'), ...groupLength, ...meta];
  input.dataset.encode(explicitVr, chunks);
  if (input.pixelData) {
    const { vr, bytes } = input.pixelData;
    const odd = bytes.length % 2 === 1;
    chunks.push(header(tag(0x7fe0, 0x0010), vr, bytes.length + (odd ? 1 : 0), explicitVr), bytes);
    if (odd) {
      chunks.push(Buffer.alloc(1));
    }
  }
  return Buffer.concat(chunks);
}
