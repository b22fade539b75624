import { PassThrough } from 'node:stream';
import yazl from 'yazl';
import { servedInstance } from '../../dicom/preamble.js';
import type { BlobStore } from '../../platform/blobs.js';

/** Names inside the zip use only safe characters, whatever the DICOM values held. */
export function safeName(s: string, fallback: string): string {
  const cleaned = s
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 64);
  return cleaned || fallback;
}

export interface PackageFile {
  blobKey: string;
  sopInstanceUid: string;
  instanceNumber: number | null;
  seriesNumber: number | null;
  modality: string;
  seriesUid: string;
}

/**
 * The study package's name (its download's file name and the zip's top folder): the accession
 * number when the exam has one, else the exam's own id. Never the patient's name, ID or birth
 * date, nor a date or UID of the study: a downloaded file's name travels (download folders,
 * e-mails, shares) where its content does not.
 */
export function packageName(exam: { id: string; accessionNumber: string }): string {
  return `study-${safeName(exam.accessionNumber, '') || safeName(exam.id, 'exam')}`;
}

/**
 * Writes the study as a zip into the blob store, streaming each instance from its blob: memory
 * stays flat however large the study. Instances are stored (not deflated): DICOM pixel data
 * hardly compresses and stored entries stream fastest. Each file's preamble is zeroed as it
 * streams (servedInstance), whenever it was stored. Inside, a folder per series (series
 * number and modality) and a file per instance (instance number, with a counter when two share
 * one): no UID or patient value in any name.
 */
export async function buildPackage(blobs: BlobStore, key: string, root: string, files: PackageFile[]): Promise<number> {
  const zip = new yazl.ZipFile();
  const seriesDirs = new Map<string, string>();
  const used = new Set<string>();
  for (const f of files) {
    let dir = seriesDirs.get(f.seriesUid);
    if (!dir) {
      dir = `${String(f.seriesNumber ?? seriesDirs.size + 1).padStart(3, '0')}_${safeName(f.modality, 'OT')}`;
      seriesDirs.set(f.seriesUid, dir);
    }
    const stem = `${root}/${dir}/${String(f.instanceNumber ?? 0).padStart(5, '0')}`;
    let name = `${stem}.dcm`;
    for (let n = 2; used.has(name); n++) name = `${stem}_${n}.dcm`;
    used.add(name);
    zip.addReadStream(servedInstance(blobs, f.blobKey), name, { compress: false });
  }
  zip.end();
  const out = new PassThrough();
  zip.outputStream.pipe(out);
  return blobs.putStream(key, out);
}
