import type { Readable } from 'node:stream';
import { bulkDataValue, instanceMetadata, type DicomJson } from '../../dicom/json-model.js';
import { CodecError, nativePixelData, NATIVE_SYNTAXES, transcodeInstance } from '../../dicom/codecs/index.js';
import { part10Dataset } from '../../dicom/part10.js';
import { servedInstance, zeroPreamble } from '../../dicom/preamble.js';
import { maskedFilesRefused } from '../../platform/authz.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { MASKED_TAGS, maskMetadata } from '../viewing/index.js';
import { mapConcurrent, readScope, type ReadScope } from './dicomweb.scope.js';
import { withExamValues } from './exam-values.js';
import { searchInstances, type ExamScope } from './qido.store.js';

/** Whether a stored file's pixel data is encapsulated (its syntax a compressed one). */
function isEncapsulated(file: Uint8Array): boolean {
  try {
    const ts = part10Dataset(Buffer.from(file.buffer, file.byteOffset, file.byteLength)).transferSyntaxUid;
    return ts !== '' && !NATIVE_SYNTAXES.has(ts);
  } catch {
    return false;
  }
}

const maskedValue = () =>
  new AppError('InsufficientPermissions', "This value is one of the patient's private fields, masked for you", {
    action: 'view_privacy',
  });

/**
 * WADO-RS retrieval: the stored files of a study, series or instance, their metadata and their
 * bulk data, scoped to what the caller may see. Frames are read in dicomweb.frames.ts.
 */
export class DicomWebRetrieval {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
  ) {}

  /**
   * The stored files of a study, a series or one instance, in series and instance order. A file
   * carries the patient's private fields as sent and cannot be served partly masked: a caller who
   * sees any of its exams masked is refused (403) and reads the masked metadata and the frames.
   */
  async files(
    caller: { id: string },
    studyUid: string,
    seriesUid?: string,
    sopUid?: string,
  ): Promise<{ blobKey: string; size: number; seriesUid: string; sopUid: string }[]> {
    const scope = await readScope(this.db, caller);
    const rows = await this.instanceRows(scope, studyUid, seriesUid, sopUid);
    if (rows.some((r) => scope.masked(r.exam))) throw maskedFilesRefused();
    return rows.map((r) => ({
      blobKey: r.instance.blobKey,
      size: r.instance.size,
      seriesUid: r.series.seriesUid,
      sopUid: r.instance.sopInstanceUid,
    }));
  }

  /** The instances of a study, a series or one instance within the organizations; 404 if none. */
  private async instanceRows(scope: ExamScope, studyUid: string, seriesUid?: string, sopUid?: string) {
    const rows = await searchInstances(
      this.db,
      scope,
      { ...(sopUid ? { SOPInstanceUID: sopUid } : {}) },
      studyUid,
      seriesUid,
      true,
    );
    if (rows.length === 0) throw errors.notFound(sopUid ? 'Instance' : seriesUid ? 'Series' : 'Study');
    return rows;
  }

  /** WADO-RS metadata of a study, series or instance. */
  async metadata(
    caller: { id: string },
    base: string,
    studyUid: string,
    seriesUid?: string,
    sopUid?: string,
  ): Promise<DicomJson[]> {
    const scope = await readScope(this.db, caller);
    return this.metadataIn(
      scope,
      (url, tagPath) => `${base}${url}/bulkdata/${tagPath}`,
      studyUid,
      seriesUid,
      sopUid,
      scope.masked,
    );
  }

  /**
   * Metadata within the given organizations. `bulk` names the BulkDataURI of a value from the
   * instance's path (/studies/…/instances/…) and the tag path; where `masked` says so for the
   * instance's exam, the private fields are masked as the viewer masks them (viewing/mask.ts).
   */
  async metadataIn(
    scope: ExamScope,
    bulk: (instancePath: string, tagPath: string) => string,
    studyUid: string,
    seriesUid?: string,
    sopUid?: string,
    masked?: ReadScope['masked'],
  ): Promise<DicomJson[]> {
    const rows = await this.instanceRows(scope, studyUid, seriesUid, sopUid);
    return mapConcurrent(rows, 8, async (r) => {
      const instancePath = `/studies/${studyUid}/series/${r.series.seriesUid}/instances/${r.instance.sopInstanceUid}`;
      const json = instanceMetadata(await this.blobs.get(r.instance.blobKey), (tagPath) => bulk(instancePath, tagPath));
      // The exam record's corrections (upload wizard step 2) win over what the file was sent with.
      const values = withExamValues(json, r.exam);
      return masked?.(r.exam) ? (maskMetadata(values, r.exam.patientName) as DicomJson) : values;
    });
  }

  /**
   * A value referenced by BulkDataURI (a tag path, json-model.ts bulkDataValue). The value of any
   * element can be asked for, so a caller who sees the exam masked is refused the ones the metadata
   * masks, and what lies inside them.
   */
  async bulkData(
    caller: { id: string },
    studyUid: string,
    seriesUid: string,
    sopUid: string,
    tag: string,
  ): Promise<Uint8Array> {
    const scope = await readScope(this.db, caller);
    return this.bulkDataIn(scope, studyUid, seriesUid, sopUid, tag, scope.masked);
  }

  async bulkDataIn(
    scope: ExamScope,
    studyUid: string,
    seriesUid: string,
    sopUid: string,
    tag: string,
    masked?: ReadScope['masked'],
  ) {
    const [row] = await this.instanceRows(scope, studyUid, seriesUid, sopUid);
    if (MASKED_TAGS.has(tag.split('.')[0]!.toUpperCase()) && masked?.(row!.exam)) throw maskedValue();
    const bytes = await this.blobs.get(row!.instance.blobKey);
    const value = bulkDataValue(bytes, tag);
    if (value) return value;
    // Encapsulated Pixel Data is decoded: an octet-stream's default syntax is explicit VR little endian.
    if (tag.toUpperCase() === '7FE00010' && isEncapsulated(bytes)) {
      try {
        return await nativePixelData(bytes);
      } catch (err) {
        if (err instanceof CodecError) {
          throw new AppError('NotAcceptable', `The pixel data cannot be decoded: ${err.message}`);
        }
        throw err;
      }
    }
    throw errors.notFound('Bulk data');
  }

  /**
   * A stored instance file in another transfer syntax (issue 28 item 7, dicom/codecs
   * transcodeInstance), its preamble zeroed; 406 when its pixels cannot be written in it.
   */
  async transcoded(blobKey: string, transferSyntaxUid: string): Promise<Uint8Array> {
    const stored = await this.blobs.get(blobKey);
    try {
      const out = await transcodeInstance(stored, transferSyntaxUid);
      if (out !== stored) return out;
      const copy = Buffer.from(out); // the stored bytes are never changed
      zeroPreamble(copy);
      return copy;
    } catch (err) {
      if (err instanceof CodecError) {
        throw new AppError('NotAcceptable', `The instance cannot be given as ${transferSyntaxUid}: ${err.message}`);
      }
      throw err;
    }
  }

  /** A stored instance file as served: its preamble zeroed (files stored before the ingest zeroed it keep theirs). */
  stream(blobKey: string): Readable {
    return servedInstance(this.blobs, blobKey);
  }

  /** A stored instance file's bytes, whole (the pixel module of a rendering is read from them). */
  read(blobKey: string): Promise<Buffer> {
    return this.blobs.get(blobKey);
  }
}
