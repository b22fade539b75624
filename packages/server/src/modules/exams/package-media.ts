import crypto from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import type { Language } from '@yyp/contracts';
import yazl from 'yazl';
import { EXPLICIT_VR_LE, IMPLICIT_VR_LE } from '../../dicom/dataset-writer.js';
import { keyText, encodeDicomdir, recordTypeOf, type DirectoryRecord, type KeyElement } from '../../dicom/dicomdir.js';
import {
  readInstanceFacts,
  recordKeys,
  TAGS,
  type InstanceFacts,
  type KeyDefaults,
} from '../../dicom/dicomdir-keys.js';
import { part10Dataset, toPart10 } from '../../dicom/part10.js';
import { servedInstance } from '../../dicom/preamble.js';
import { rewriteLittleEndian } from '../../dicom/transcode.js';
import type { BlobStore } from '../../platform/blobs.js';
import { indexPage, readme, type MediaSummary } from './package-index.js';
import type { MediaFile } from './package-media.store.js';

/**
 * A study package (or several studies') as DICOM media (PS3.10, the General Purpose CD-R/DVD
 * interchange profiles of PS3.11): under the package's folder a DICOMDIR describing every file, the
 * instances as stored (preamble zeroed) under File IDs of 8-character components
 * (DICOM/P0000001/S0000001/SE000001/I0000001: patient, study, series, instance, no extension), an
 * offline index page INDEX.HTM and README.TXT. The folder's content is the disc's root. An
 * instance stored in Implicit VR Little Endian, which the General Purpose profiles do not allow on
 * media, is written in Explicit VR Little Endian (the same values, VRs from the dictionary).
 */
export interface MediaOptions {
  /** the zip's top folder: the package's name */
  root: string;
  language: Language;
  now: Date;
}

/** File prefixes read for a record's keys: most headers end within the first; a few need more. */
const PREFIXES = [64 * 1024, 1024 * 1024];
const READ_CONCURRENCY = 8;

async function readPrefix(blobs: BlobStore, key: string, length: number): Promise<Buffer> {
  if (length <= 0) return Buffer.alloc(0);
  if (blobs.read) return blobs.read(key, 0, length);
  const chunks: Buffer[] = [];
  for await (const c of blobs.stream(key, { start: 0, end: length - 1 }) as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

/** The file's facts from its first bytes; a longer prefix when the header goes on past the first. */
async function factsOf(blobs: BlobStore, f: MediaFile): Promise<InstanceFacts | null> {
  let facts: InstanceFacts | null = null;
  for (const n of PREFIXES) {
    const length = Math.min(n, f.size);
    facts = readInstanceFacts(await readPrefix(blobs, f.blobKey, length));
    if (facts?.complete || length >= f.size) break;
  }
  return facts;
}

/** Facts from the archive's index, for a file whose header cannot be read (UTF-8 text). */
function factsFromIndex(f: MediaFile): InstanceFacts {
  const texts: [number, 'PN' | 'LO' | 'SH' | 'DA' | 'TM' | 'CS' | 'UI' | 'IS', string][] = [
    [TAGS.patientName, 'PN', f.patientName],
    [TAGS.patientId, 'LO', f.patientId],
    [TAGS.studyDate, 'DA', f.studyDate],
    [TAGS.studyTime, 'TM', f.studyTime],
    [TAGS.studyId, 'SH', f.studyId],
    [TAGS.studyUid, 'UI', f.studyUid],
    [TAGS.seriesUid, 'UI', f.seriesUid],
    [TAGS.modality, 'CS', f.modality],
    [0x00080050, 'SH', f.accessionNumber],
    [0x00081030, 'LO', f.studyDescription],
    [0x0008103e, 'LO', f.seriesDescription],
  ];
  if (f.seriesNumber !== null) texts.push([TAGS.seriesNumber, 'IS', String(f.seriesNumber)]);
  if (f.instanceNumber !== null) texts.push([TAGS.instanceNumber, 'IS', String(f.instanceNumber)]);
  const values = new Map<number, KeyElement>();
  for (const [t, vr, v] of texts) if (v) values.set(t, keyText(t, vr, Buffer.from(v, 'utf8')));
  const ascii = texts.every(([, , v]) => /^[\x20-\x7e]*$/.test(v));
  const text = (t: number) => {
    const v = values.get(t);
    return v && v.vr !== 'SQ' ? v.value.toString('utf8').trim() : '';
  };
  return {
    values,
    charset: ascii ? '' : 'ISO_IR 192',
    sopClassUid: f.sopClassUid,
    sopInstanceUid: f.sopInstanceUid,
    transferSyntaxUid: f.transferSyntaxUid,
    studyInstanceUid: f.studyUid,
    seriesInstanceUid: f.seriesUid,
    complete: true,
    text,
  };
}

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

interface Entry {
  file: MediaFile;
  facts: InstanceFacts;
}
interface Node<C> {
  key: string;
  entries: Entry[];
  children: Map<string, C>;
}
type SeriesNode = Node<never>;
type StudyNode = Node<SeriesNode>;
type PatientNode = Node<StudyNode>;

function child<C extends Node<unknown>>(map: Map<string, C>, key: string): C {
  let node = map.get(key);
  if (!node) {
    node = { key, entries: [], children: new Map() } as unknown as C;
    map.set(key, node);
  }
  return node;
}

const raw = (facts: InstanceFacts, t: number) => {
  const v = facts.values.get(t);
  return v && v.vr !== 'SQ' ? v.value.toString('latin1').replace(/[ \0]+$/, '') : '';
};

/** A UID of the 2.25 arc (PS3.5 B.2) from a random UUID. */
export function randomUid(): string {
  return `2.25.${BigInt(`0x${crypto.randomUUID().replace(/-/g, '')}`).toString()}`;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export interface MediaLayout {
  dicomdir: Buffer;
  /** `explicit`: the stored file is implicit VR and goes on the media rewritten as explicit VR */
  files: { file: MediaFile; path: string; explicit: boolean }[];
  summary: MediaSummary;
}

/**
 * The media's DICOMDIR and file names: instances grouped as dcmmkdir groups them (patient by its
 * Patient ID and name as the file writes them, study by Study Instance UID, series by Series
 * Instance UID), each SOP instance once.
 */
export async function mediaLayout(blobs: BlobStore, files: MediaFile[], now: Date): Promise<MediaLayout> {
  const seen = new Set<string>();
  const unique = files.filter((f) => !seen.has(f.sopInstanceUid) && seen.add(f.sopInstanceUid));
  const facts = await mapLimited(unique, READ_CONCURRENCY, async (f) => (await factsOf(blobs, f)) ?? factsFromIndex(f));
  const patients = new Map<string, PatientNode>();
  unique.forEach((file, i) => {
    const fx = facts[i]!;
    const patient = child(patients, `${raw(fx, TAGS.patientId)}\0${raw(fx, TAGS.patientName)}`);
    const study = child(patient.children, fx.studyInstanceUid || file.studyUid);
    const series = child(study.children, fx.seriesInstanceUid || file.seriesUid);
    for (const node of [patient, study, series]) node.entries.push({ file, facts: fx });
  });
  const iso = now.toISOString();
  const base = { today: iso.slice(0, 10).replace(/-/g, ''), now: iso.slice(11, 19).replace(/:/g, '') };
  const out: MediaLayout = { dicomdir: Buffer.alloc(0), files: [], summary: { patients: [] } };
  const records: DirectoryRecord[] = [];
  let p = 0;
  for (const patient of patients.values()) {
    p++;
    const first = patient.entries[0]!;
    const defaults = (e: Entry, seriesNumber: number, instanceNumber: number, studyIndex: number): KeyDefaults => ({
      ...base,
      patientId: first.file.patientId || `YYP${pad(p, 7)}`,
      studyId: e.file.studyId || `${pad(studyIndex, 4)}`,
      modality: e.file.modality,
      seriesNumber: e.file.seriesNumber ?? seriesNumber,
      instanceNumber: e.file.instanceNumber ?? instanceNumber,
    });
    const patientRecord: DirectoryRecord = {
      type: 'PATIENT',
      keys: recordKeys('PATIENT', first.facts, defaults(first, 1, 1, 1)),
      children: [],
    };
    const patientSummary: MediaSummary['patients'][number] = {
      name: first.file.patientName,
      id: first.file.patientId,
      birthDate: first.file.patientBirthDate,
      sex: first.file.patientSex,
      studies: [],
    };
    let s = 0;
    for (const study of patient.children.values()) {
      s++;
      const sf = study.entries[0]!;
      const studyRecord: DirectoryRecord = {
        type: 'STUDY',
        keys: recordKeys('STUDY', sf.facts, defaults(sf, 1, 1, s)),
        children: [],
      };
      const studySummary: MediaSummary['patients'][number]['studies'][number] = {
        date: sf.file.studyDate,
        time: sf.file.studyTime,
        description: sf.file.studyDescription,
        accessionNumber: sf.file.accessionNumber,
        series: [],
      };
      let se = 0;
      for (const series of study.children.values()) {
        se++;
        const ef = series.entries[0]!;
        const folder = ['DICOM', `P${pad(p, 7)}`, `S${pad(s, 7)}`, `SE${pad(se, 6)}`];
        const seriesRecord: DirectoryRecord = {
          type: 'SERIES',
          keys: recordKeys('SERIES', ef.facts, defaults(ef, se, 1, s)),
          children: series.entries.map((e, i) => {
            const fileId = [...folder, `I${pad(i + 1, 7)}`];
            const stored = e.facts.transferSyntaxUid || e.file.transferSyntaxUid;
            const explicit = stored === IMPLICIT_VR_LE;
            out.files.push({ file: e.file, path: fileId.join('/'), explicit });
            const type = recordTypeOf(e.facts.sopClassUid || e.file.sopClassUid);
            return {
              type,
              keys: recordKeys(type, e.facts, defaults(e, se, i + 1, s)),
              file: {
                fileId,
                sopClassUid: e.facts.sopClassUid || e.file.sopClassUid,
                sopInstanceUid: e.facts.sopInstanceUid || e.file.sopInstanceUid,
                transferSyntaxUid: explicit ? EXPLICIT_VR_LE : stored,
              },
            };
          }),
        };
        studyRecord.children!.push(seriesRecord);
        studySummary.series.push({
          number: ef.file.seriesNumber,
          modality: ef.file.modality,
          description: ef.file.seriesDescription,
          folder: folder.join('/'),
          count: series.entries.length,
        });
      }
      patientRecord.children!.push(studyRecord);
      patientSummary.studies.push(studySummary);
    }
    records.push(patientRecord);
    out.summary.patients.push(patientSummary);
  }
  out.dicomdir = encodeDicomdir({ fileSetId: 'YYP_MEDIA', instanceUid: randomUid(), records });
  return out;
}

/**
 * Writes the media as a zip into the blob store under `key`, streaming each instance from its blob
 * (stored, not deflated; preamble zeroed as it streams); answers the zip's size.
 */
export async function buildMediaPackage(
  blobs: BlobStore,
  key: string,
  files: MediaFile[],
  options: MediaOptions,
): Promise<number> {
  return blobs.putStream(key, await mediaZip(blobs, files, options));
}

/**
 * An implicit VR file as the Part 10 file of its data set in Explicit VR Little Endian (read whole:
 * instances stored so are uncompressed single images). A file that cannot be rewritten (malformed
 * past its header) goes on as stored, which its own meta header still describes.
 */
function explicitCopy(blobs: BlobStore, key: string): Readable {
  return Readable.from(
    (async function* () {
      const file = Buffer.from(await blobs.get(key)); // a copy: its preamble may be zeroed below
      try {
        const p = part10Dataset(file);
        const dataset = rewriteLittleEndian(p.dataset, IMPLICIT_VR_LE, EXPLICIT_VR_LE);
        yield toPart10(dataset, { ...p, transferSyntaxUid: EXPLICIT_VR_LE });
      } catch {
        file.fill(0, 0, Math.min(128, file.length));
        yield file;
      }
    })(),
    { objectMode: false },
  );
}

/** The media as a zip stream. */
export async function mediaZip(blobs: BlobStore, files: MediaFile[], options: MediaOptions): Promise<Readable> {
  const layout = await mediaLayout(blobs, files, options.now);
  const zip = new yazl.ZipFile();
  const at = (name: string) => `${options.root}/${name}`;
  const mtime = options.now;
  zip.addBuffer(layout.dicomdir, at('DICOMDIR'), { compress: false, mtime });
  for (const f of layout.files) {
    const stream = f.explicit ? explicitCopy(blobs, f.file.blobKey) : servedInstance(blobs, f.file.blobKey);
    zip.addReadStream(stream, at(f.path), { compress: false, mtime });
  }
  zip.addBuffer(Buffer.from(indexPage(layout.summary, options.language), 'utf8'), at('INDEX.HTM'), { mtime });
  zip.addBuffer(Buffer.from(readme(layout.summary, options.language), 'utf8'), at('README.TXT'), { mtime });
  zip.end();
  const out = new PassThrough();
  zip.outputStream.pipe(out);
  return out;
}
