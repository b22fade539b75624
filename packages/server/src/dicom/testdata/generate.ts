/**
 * Synthetic DICOM studies for tests and benchmarks: valid Part 10 files (checked with DCMTK in
 * generate.test.ts) with realistic patient/study/series attributes and deterministic pixels.
 * Nothing is downloaded; every byte is written here.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_MODULES, type ImageContext, MODALITY_DEFAULTS, type Modality, SOP_CLASS } from './modalities.js';
import { type Charset } from './text-encode.js';
import { DEFAULT_UID_ROOT, newUid } from './uid.js';
import { DatasetBuilder, EXPLICIT_VR_LE, type TransferSyntax, encodePart10, tag } from './writer.js';

export { CT_PHANTOM, ctPhantomExactHu, ctPhantomRegion, type CtRegion } from './pixels.js';
export { MODALITY_DEFAULTS, SOP_CLASS, type Modality } from './modalities.js';
export { type Charset, encodeText } from './text-encode.js';
export { DEFAULT_UID_ROOT, isValidUid, newUid } from './uid.js';
export { EXPLICIT_VR_LE, IMPLICIT_VR_LE, type TransferSyntax } from './writer.js';

export interface StudyOptions {
  modality: Modality;
  /** Encoded with `charset`, e.g. '张三^' with GB18030. Default a Latin name. */
  patientName?: string;
  patientId?: string;
  patientSex?: 'M' | 'F' | 'O';
  /** YYYYMMDD */
  patientBirthDate?: string;
  /** Written to SpecificCharacterSet (0008,0005); '' leaves it out (default repertoire). */
  charset?: Charset;
  studyInstanceUid?: string;
  accessionNumber?: string;
  /** YYYYMMDD */
  studyDate?: string;
  /** HHMMSS */
  studyTime?: string;
  studyDescription?: string;
  bodyPartExamined?: string;
  institutionName?: string;
  referringPhysicianName?: string;
  /** Number of series (default 1). */
  series?: number;
  /** Default: CT 20, MR 10, DX 1, US 1. */
  instancesPerSeries?: number;
  /** Default CT 512×512, MR 256×256, DX 1024×1024, US 480×640. */
  rows?: number;
  columns?: number;
  /** US clip frames (default 20). */
  frames?: number;
  /** US colour model (default MONOCHROME2). */
  usPhotometric?: 'MONOCHROME2' | 'RGB';
  transferSyntax?: TransferSyntax;
  uidRoot?: string;
}

export interface GeneratedInstance {
  fileName: string;
  bytes: Buffer;
  sopInstanceUid: string;
  sopClassUid: string;
  seriesInstanceUid: string;
  seriesNumber: number;
  instanceNumber: number;
}

export interface GeneratedStudy {
  studyInstanceUid: string;
  patientId: string;
  instances: GeneratedInstance[];
}

/** Study options with every default applied; one per generated study. */
export type ResolvedStudy = Required<StudyOptions>;

export interface SeriesContext {
  seriesInstanceUid: string;
  seriesNumber: number;
  frameOfReferenceUid: string;
}

/** Random digits for default identifiers, so separately generated studies never merge. */
function digits(n: number): string {
  let s = '';
  while (s.length < n) {
    s += Math.floor(Math.random() * 1e9)
      .toString()
      .padStart(9, '0');
  }
  return s.slice(0, n);
}

export function resolveStudy(opts: StudyOptions): ResolvedStudy {
  const d = MODALITY_DEFAULTS[opts.modality];
  const uidRoot = opts.uidRoot ?? DEFAULT_UID_ROOT;
  return {
    modality: opts.modality,
    patientName: opts.patientName ?? 'DOE^JANE',
    patientId: opts.patientId ?? `YYP${digits(8)}`,
    patientSex: opts.patientSex ?? 'F',
    patientBirthDate: opts.patientBirthDate ?? '19700101',
    charset: opts.charset ?? '',
    studyInstanceUid: opts.studyInstanceUid ?? newUid(uidRoot),
    accessionNumber: opts.accessionNumber ?? `A${digits(9)}`,
    studyDate: opts.studyDate ?? '20240601',
    studyTime: opts.studyTime ?? '101500',
    studyDescription: opts.studyDescription ?? `${opts.modality} ${d.bodyPart}`,
    bodyPartExamined: opts.bodyPartExamined ?? d.bodyPart,
    institutionName: opts.institutionName ?? 'YYP Test Hospital',
    referringPhysicianName: opts.referringPhysicianName ?? 'SMITH^JOHN',
    series: opts.series ?? 1,
    instancesPerSeries: opts.instancesPerSeries ?? d.instancesPerSeries,
    rows: opts.rows ?? d.rows,
    columns: opts.columns ?? d.columns,
    frames: opts.frames ?? 20,
    usPhotometric: opts.usPhotometric ?? 'MONOCHROME2',
    transferSyntax: opts.transferSyntax ?? EXPLICIT_VR_LE,
    uidRoot,
  };
}

export function newSeries(study: ResolvedStudy, seriesNumber: number): SeriesContext {
  return {
    seriesInstanceUid: newUid(study.uidRoot),
    seriesNumber,
    frameOfReferenceUid: newUid(study.uidRoot),
  };
}

/** Patient, study, series, equipment and SOP common attributes shared by every modality. */
function commonAttributes(ds: DatasetBuilder, s: ResolvedStudy, series: SeriesContext, uid: string, n: number): void {
  if (s.charset) {
    ds.text(tag(0x0008, 0x0005), 'CS', s.charset);
  }
  ds.text(tag(0x0008, 0x0012), 'DA', s.studyDate)
    .text(tag(0x0008, 0x0013), 'TM', s.studyTime)
    .text(tag(0x0008, 0x0016), 'UI', SOP_CLASS[s.modality])
    .text(tag(0x0008, 0x0018), 'UI', uid)
    .text(tag(0x0008, 0x0020), 'DA', s.studyDate)
    .text(tag(0x0008, 0x0021), 'DA', s.studyDate)
    .text(tag(0x0008, 0x0023), 'DA', s.studyDate)
    .text(tag(0x0008, 0x0030), 'TM', s.studyTime)
    .text(tag(0x0008, 0x0031), 'TM', s.studyTime)
    .text(tag(0x0008, 0x0033), 'TM', s.studyTime)
    .text(tag(0x0008, 0x0050), 'SH', s.accessionNumber)
    .text(tag(0x0008, 0x0060), 'CS', s.modality)
    .text(tag(0x0008, 0x0070), 'LO', 'YYP')
    .text(tag(0x0008, 0x0080), 'LO', s.institutionName)
    .text(tag(0x0008, 0x0090), 'PN', s.referringPhysicianName)
    .text(tag(0x0008, 0x1030), 'LO', s.studyDescription)
    .text(tag(0x0008, 0x103e), 'LO', `${MODALITY_DEFAULTS[s.modality].seriesDescription} #${series.seriesNumber}`)
    .text(tag(0x0008, 0x1090), 'LO', 'Synthetic Generator')
    .text(tag(0x0010, 0x0010), 'PN', s.patientName)
    .text(tag(0x0010, 0x0020), 'LO', s.patientId)
    .text(tag(0x0010, 0x0030), 'DA', s.patientBirthDate)
    .text(tag(0x0010, 0x0040), 'CS', s.patientSex)
    .text(tag(0x0018, 0x0015), 'CS', s.bodyPartExamined)
    .text(tag(0x0020, 0x000d), 'UI', s.studyInstanceUid)
    .text(tag(0x0020, 0x000e), 'UI', series.seriesInstanceUid)
    .text(tag(0x0020, 0x0010), 'SH', '1')
    .integerString(tag(0x0020, 0x0011), series.seriesNumber)
    .integerString(tag(0x0020, 0x0012), 1)
    .integerString(tag(0x0020, 0x0013), n)
    .text(tag(0x0028, 0x2110), 'CS', '00');
  if (s.modality === 'CT' || s.modality === 'MR') {
    ds.text(tag(0x0020, 0x0052), 'UI', series.frameOfReferenceUid).text(tag(0x0020, 0x1040), 'LO', '');
  }
}

/** Instance `index` (0-based) of a series: InstanceNumber = index + 1, CT/MR z = -index × thickness. */
export function generateInstance(study: ResolvedStudy, series: SeriesContext, index: number): GeneratedInstance {
  const sopInstanceUid = newUid(study.uidRoot);
  const sopClassUid = SOP_CLASS[study.modality];
  const ds = new DatasetBuilder(study.charset);
  commonAttributes(ds, study, series, sopInstanceUid, index + 1);
  const ctx: ImageContext = {
    index,
    rows: study.rows,
    columns: study.columns,
    frames: study.frames,
    usPhotometric: study.usPhotometric,
  };
  const pixelData = IMAGE_MODULES[study.modality](ds, ctx);
  const bytes = encodePart10({
    sopClassUid,
    sopInstanceUid,
    transferSyntax: study.transferSyntax,
    dataset: ds,
    pixelData,
  });
  return {
    fileName: `${sopInstanceUid}.dcm`,
    bytes,
    sopInstanceUid,
    sopClassUid,
    seriesInstanceUid: series.seriesInstanceUid,
    seriesNumber: series.seriesNumber,
    instanceNumber: index + 1,
  };
}

export function generateStudy(opts: StudyOptions): GeneratedStudy {
  const study = resolveStudy(opts);
  const instances: GeneratedInstance[] = [];
  for (let s = 1; s <= study.series; s++) {
    const series = newSeries(study, s);
    for (let i = 0; i < study.instancesPerSeries; i++) {
      instances.push(generateInstance(study, series, i));
    }
  }
  return { studyInstanceUid: study.studyInstanceUid, patientId: study.patientId, instances };
}

/** One CT slice of a fresh study: the quickest valid file for parser and fuzz tests. */
export function generateCtInstance(opts: Omit<StudyOptions, 'modality'> = {}, index = 0): GeneratedInstance {
  const study = resolveStudy({ ...opts, modality: 'CT' });
  return generateInstance(study, newSeries(study, 1), index);
}

/** Writes each instance as `<dir>/<fileName>` and returns the paths in instance order. */
export async function writeStudy(dir: string, study: GeneratedStudy): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const paths = study.instances.map((inst) => path.join(dir, inst.fileName));
  await Promise.all(study.instances.map((inst, i) => writeFile(paths[i]!, inst.bytes)));
  return paths;
}
