import { callerScope } from '../../platform/access.js';
import { effectiveActions } from '../../platform/authz.js';
import type { BlobStore } from '../../platform/blobs.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { hiddenConsultationCopies } from '../exams/index.js';
import { canDecode, CodecError, encodesSyntax } from '../../dicom/codecs/index.js';
import { frameAnswer, type WantedPart } from './accept.js';
import { FrameSource, type Frame } from './frame-source.js';
import { bucketsOf, hiddenOf, type ExamScope } from './qido.store.js';
import {
  examInstanceFile,
  instanceFile,
  viewerFrameFile,
  type ExamInstance,
  type StoredFile,
  type ViewerFrameRow,
} from './frames.store.js';

const notAcceptable = (message: string) => new AppError('NotAcceptable', message);

/** WADO-RS frames: the frame path's look-ups (frames.store.ts) and the frames of a stored file (frame-source.ts). */
export class DicomWebFrames {
  constructor(
    private readonly db: Db,
    blobs: BlobStore,
  ) {
    this.frameSource = new FrameSource(blobs);
  }

  /** Frames of stored files, with the layouts of those read before (frame-source.ts). */
  readonly frameSource: FrameSource;

  /**
   * The bytes of frames of one instance, 1-based, in the organizations where the caller holds
   * exam_get: read from the scope its authentication loaded (no query of its own), then one
   * prepared look-up of the instance's file (frames.store.ts) and the frames (frame-source.ts).
   */
  async frames(
    caller: { id: string },
    studyUid: string,
    seriesUid: string,
    sopUid: string,
    numbers: number[],
    wanted?: readonly WantedPart[],
  ) {
    const file = await this.instanceFileOf(caller, studyUid, seriesUid, sopUid);
    return wanted ? this.answer(file, numbers, wanted) : this.frameSource.read(file, numbers);
  }

  /**
   * The stored file of an instance in the organizations where the caller holds exam_get: the
   * scope its authentication loaded (no query of its own), one prepared look-up, and the copy gate
   * only when the file is a consultation's copy; 404 when there is none.
   */
  async instanceFileOf(
    caller: { id: string },
    studyUid: string,
    seriesUid: string,
    sopUid: string,
  ): Promise<StoredFile> {
    const { access, facts } = await callerScope(this.db, caller);
    const buckets = facts.filter((b) => effectiveActions(access, b).has('exam_get')).map((b) => b.id);
    let file = await instanceFile(this.db, buckets, studyUid, seriesUid, sopUid);
    // A consultation's copy is read only by its participants (the exams face's copy gate): for
    // anyone else the look-up is made again without the copies hidden from the caller.
    if (file?.source === 'consultation') {
      const hidden = await hiddenConsultationCopies(this.db, caller, buckets);
      if (hidden.includes(file.examId)) {
        file = await instanceFile(this.db, buckets, studyUid, seriesUid, sopUid, hidden);
      }
    }
    if (!file) throw errors.notFound('Instance');
    return file;
  }

  /**
   * Frames in the syntax and media type the request's Accept asks for (accept.ts frameAnswer):
   * as stored when it takes them, else transcoded; 406 when it names nothing they can be given in.
   */
  private async answer(file: StoredFile, numbers: number[], wanted: readonly WantedPart[]): Promise<Frame[]> {
    const frames = await this.frameSource.read(file, numbers);
    const stored = frames[0]!.transferSyntaxUid;
    const chosen = frameAnswer(stored, wanted, (ts) => canDecode(stored) && encodesSyntax(ts));
    if (!chosen) throw notAcceptable(`The frames are stored as ${stored} and cannot be given in the syntax asked for`);
    if (chosen.transferSyntax === stored) return frames.map((f) => ({ ...f, mediaType: chosen.mediaType }));
    try {
      const out = await this.frameSource.transcoded(file, numbers, chosen.transferSyntax);
      return out.map((f) => ({ ...f, mediaType: chosen.mediaType }));
    } catch (err) {
      if (err instanceof CodecError) {
        throw notAcceptable(`The frames cannot be given as ${chosen.transferSyntax}: ${err.message}`);
      }
      throw err;
    }
  }

  async framesIn(
    scope: ExamScope,
    studyUid: string,
    seriesUid: string,
    sopUid: string,
    numbers: number[],
  ): Promise<Frame[]> {
    const file = await instanceFile(this.db, bucketsOf(scope), studyUid, seriesUid, sopUid, hiddenOf(scope));
    if (!file) throw errors.notFound('Instance');
    return this.frameSource.read(file, numbers);
  }

  /** Frames of an instance file found by the viewer's own look-up (viewerFrameFile, examInstanceFile). */
  readFrames(file: StoredFile, numbers: number[]): Promise<Frame[]> {
    return this.frameSource.read(file, numbers);
  }

  /** The viewer path's account and the file of an instance of its exam, in one round trip. */
  viewerFrameFile(accountId: string, x: ExamInstance): Promise<ViewerFrameRow | undefined> {
    return viewerFrameFile(this.db, accountId, x);
  }

  /** The file of an instance of a share path's exam. */
  examInstanceFile(x: ExamInstance): Promise<StoredFile | undefined> {
    return examInstanceFile(this.db, x);
  }
}
