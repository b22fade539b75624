import { createRequire } from 'node:module';
import dicomParser from 'dicom-parser';
import { decodeDicomText } from './charset.js';
import { EXPLICIT_VR_LITTLE_ENDIAN, littleEndianValue } from './endian.js';
import { MAX_SEQUENCE_DEPTH } from './parse.js';

/**
 * The DICOM JSON model (PS3.18 F.2) of a stored instance, for WADO-RS metadata. Text is decoded
 * from the instance's character set and answered as UTF-8; binary values above a small size are
 * referenced by BulkDataURI instead of inlined; pixel data is served by the frames resource.
 */
const require = createRequire(import.meta.url);
const dictionary = (
  require('dcmjs') as { data: { DicomMetaDictionary: { dictionary: Record<string, { vr: string }> } } }
).data.DicomMetaDictionary.dictionary;

type Attr = { vr: string; Value?: unknown[]; BulkDataURI?: string; InlineBinary?: string };
export type DicomJson = Record<string, Attr>;

const TEXT_VRS = new Set(['SH', 'LO', 'ST', 'LT', 'UT', 'UC', 'PN']);
const SINGLE_VALUE = new Set(['LT', 'ST', 'UT', 'UR']);
const BINARY_VRS = new Set(['OB', 'OW', 'OF', 'OD', 'OL', 'OV', 'UN']);
const INLINE_LIMIT = 1024;

/** The dataset was read from an Explicit VR Big Endian file (nested items share its parser). */
const isBigEndian = (ds: dicomParser.DataSet): boolean => ds.byteArrayParser === dicomParser.bigEndianByteArrayParser;

/** A binary value as served: little endian whatever the file's byte order (endian.ts). */
function servedValue(ds: dicomParser.DataSet, el: dicomParser.Element, vr: string): Uint8Array {
  const raw = ds.byteArray.subarray(el.dataOffset, el.dataOffset + el.length);
  return isBigEndian(ds) ? littleEndianValue(raw, vr) : raw;
}

function vrOf(tag: string, el: dicomParser.Element): string {
  if (el.vr) return el.vr;
  if (el.items) return 'SQ';
  const key = `(${tag.slice(1, 5)},${tag.slice(5, 9)})`.toUpperCase();
  const vr = dictionary[key]?.vr ?? 'UN';
  // Dictionary entries like "US or SS" or "ox": choose the common interpretation.
  if (vr === 'ox' || vr === 'OB or OW') return 'OW';
  if (vr.includes(' or ')) return vr.split(' or ')[0]!;
  return vr;
}

function numbers(ds: dicomParser.DataSet, tag: string, el: dicomParser.Element, vr: string): number[] {
  const size = vr === 'FD' || vr === 'SV' || vr === 'UV' ? 8 : vr === 'US' || vr === 'SS' ? 2 : 4;
  const out: number[] = [];
  for (let i = 0; i < Math.floor(el.length / size); i++) {
    switch (vr) {
      case 'US':
        out.push(ds.uint16(tag, i)!);
        break;
      case 'SS':
        out.push(ds.int16(tag, i)!);
        break;
      case 'UL':
        out.push(ds.uint32(tag, i)!);
        break;
      case 'SL':
        out.push(ds.int32(tag, i)!);
        break;
      case 'FL':
        out.push(ds.float(tag, i)!);
        break;
      case 'FD':
        out.push(ds.double(tag, i)!);
        break;
    }
  }
  return out;
}

/** A person name's component groups as PS3.18 F.2.2 answers them: Zhang^Wei=张^伟= → Alphabetic, Ideographic. */
export function personName(value: string): { Alphabetic?: string; Ideographic?: string; Phonetic?: string } {
  const [alphabetic, ideographic, phonetic] = value.split('=');
  return {
    ...(alphabetic ? { Alphabetic: alphabetic } : {}),
    ...(ideographic ? { Ideographic: ideographic } : {}),
    ...(phonetic ? { Phonetic: phonetic } : {}),
  };
}

/**
 * Text values are answered without U+0000: no DICOM text VR allows it (UI pads with one at the
 * end), and trailing padding is trimmed. Items nested deeper than the ingest accepts
 * (MAX_SEQUENCE_DEPTH) are answered empty, so a file stored before that limit cannot exhaust
 * the stack.
 */
export function toDicomJson(
  ds: dicomParser.DataSet,
  charset: string | undefined,
  bulkDataUri: (tagPath: string) => string,
  path = '',
  depth = 0,
): DicomJson {
  const out: DicomJson = {};
  const bytes = ds.byteArray;
  for (const tag of Object.keys(ds.elements).sort()) {
    if (tag.startsWith('x0002') || tag.endsWith('0000') || tag.slice(5, 9) === '0000') continue; // meta and group lengths
    const el = ds.elements[tag]!;
    const key = tag.slice(1).toUpperCase();
    const vr = vrOf(tag, el);
    if (vr === 'SQ') {
      out[key] = {
        vr,
        // A nested value's tag path names its item too (bulkDataValue reads it back).
        Value: (el.items ?? []).map((item, index) =>
          item.dataSet && depth < MAX_SEQUENCE_DEPTH
            ? toDicomJson(item.dataSet, charset, bulkDataUri, `${path}${key}.${index}.`, depth + 1)
            : {},
        ),
      };
      continue;
    }
    if (el.length === 0) {
      out[key] = { vr };
      continue;
    }
    if (key === '7FE00010' || BINARY_VRS.has(vr) || el.length > 65_536) {
      out[key] =
        key !== '7FE00010' && el.length <= INLINE_LIMIT && !el.encapsulatedPixelData
          ? {
              vr,
              InlineBinary: Buffer.from(servedValue(ds, el, vr)).toString('base64'),
            }
          : { vr, BulkDataURI: bulkDataUri(`${path}${key}`) };
      continue;
    }
    if (['US', 'SS', 'UL', 'SL', 'FL', 'FD'].includes(vr)) {
      out[key] = { vr, Value: numbers(ds, tag, el, vr) };
      continue;
    }
    if (vr === 'AT') {
      const values: string[] = [];
      for (let i = 0; i < el.length / 4; i++) {
        const g = ds.uint16(tag, i * 2)!;
        const e = ds.uint16(tag, i * 2 + 1)!;
        values.push(`${g.toString(16).padStart(4, '0')}${e.toString(16).padStart(4, '0')}`.toUpperCase());
      }
      out[key] = { vr, Value: values };
      continue;
    }
    const raw = bytes.subarray(el.dataOffset, el.dataOffset + el.length);
    const text = (
      TEXT_VRS.has(vr)
        ? decodeDicomText(raw, charset, vr === 'PN' ? 'PN' : 'text')
        : Buffer.from(raw.buffer, raw.byteOffset, raw.length).toString('latin1')
    )
      .replaceAll('\0', '')
      .replace(/ +$/, '');
    if (text === '') {
      out[key] = { vr };
      continue;
    }
    const values = SINGLE_VALUE.has(vr) ? [text] : text.split('\\');
    if (vr === 'PN') {
      out[key] = { vr, Value: values.map(personName) };
    } else if (vr === 'IS' || vr === 'DS') {
      out[key] = { vr, Value: values.map((v) => (v.trim() === '' ? null : Number(v.trim()))) };
    } else {
      out[key] = { vr, Value: values.map((v) => v.trim()) };
    }
  }
  return out;
}

/** Metadata of a stored file: its dataset (minus group 0002) as DICOM JSON in UTF-8. */
export function instanceMetadata(file: Uint8Array, bulkDataUri: (tagPath: string) => string): DicomJson {
  const ds = dicomParser.parseDicom(file);
  const charset = ds.string('x00080005');
  const json = toDicomJson(ds, charset, bulkDataUri);
  json['00080005'] = { vr: 'CS', Value: ['ISO_IR 192'] };
  const ts = ds.string('x00020010');
  if (ts) json['00020010'] = { vr: 'UI', Value: [ts] };
  return json;
}

/**
 * The bytes of frame n (1-based) of a stored file: one encapsulated frame as stored, with the
 * file's transfer syntax, or a native frame in little endian (Explicit VR Little Endian).
 */
export function frameBytes(file: Uint8Array, n: number): { bytes: Uint8Array; transferSyntaxUid: string } {
  const ds = dicomParser.parseDicom(file);
  const ts = ds.string('x00020010') ?? '1.2.840.10008.1.2';
  const pixel = ds.elements.x7fe00010;
  if (!pixel) throw new RangeError('no pixel data');
  const frames = Number.parseInt(ds.string('x00280008') ?? '1', 10) || 1;
  if (!Number.isInteger(n) || n < 1 || n > frames) throw new RangeError(`frame ${n} of ${frames}`);
  if (pixel.encapsulatedPixelData) {
    const table = pixel.basicOffsetTable?.length
      ? pixel.basicOffsetTable
      : dicomParser.createJPEGBasicOffsetTable(ds, pixel);
    const bytes =
      frames === 1
        ? dicomParser.readEncapsulatedPixelDataFromFragments(ds, pixel, 0, pixel.fragments?.length ?? 1)
        : dicomParser.readEncapsulatedImageFrame(ds, pixel, n - 1, table);
    return { bytes, transferSyntaxUid: ts };
  }
  const rows = ds.uint16('x00280010') ?? 0;
  const cols = ds.uint16('x00280011') ?? 0;
  const spp = ds.uint16('x00280002') ?? 1;
  const bits = ds.uint16('x00280100') ?? 16;
  const size = Math.ceil((rows * cols * spp * bits) / 8);
  const start = pixel.dataOffset + (n - 1) * size;
  const native = file.subarray(start, start + size);
  // Native frames are served as raw little-endian bytes (endian.ts), whatever the file's order.
  return {
    bytes: isBigEndian(ds) ? littleEndianValue(native, pixel.vr ?? 'OW') : native,
    transferSyntaxUid: EXPLICIT_VR_LITTLE_ENDIAN,
  };
}

/**
 * The value a BulkDataURI names, in little endian, for its retrieval: a top-level element (its tag
 * as 8 hex digits) or one inside sequence items, its tag path the tags and 0-based item indexes
 * joined by dots as toDicomJson writes them (00880200.0.7FE00010: the icon's pixel data). One path
 * segment, so the bulkdata routes take it as they take a tag. Null for a path that names no value.
 */
export function bulkDataValue(file: Uint8Array, tagPath: string): Uint8Array | null {
  const steps = tagPath.split('.');
  if (steps.length % 2 === 0 || steps.length > 2 * MAX_SEQUENCE_DEPTH + 1) return null;
  let ds = dicomParser.parseDicom(file);
  for (let i = 0; ; i += 2) {
    const tag = steps[i]!;
    if (!/^[0-9A-Fa-f]{8}$/.test(tag)) return null;
    const el = ds.elements[`x${tag.toLowerCase()}`];
    if (!el) return null;
    if (i === steps.length - 1) {
      return el.encapsulatedPixelData || el.items ? null : servedValue(ds, el, el.vr ?? vrOfTag(tag.toUpperCase()));
    }
    const index = steps[i + 1]!;
    const item = /^\d{1,6}$/.test(index) ? el.items?.[Number(index)]?.dataSet : undefined;
    if (!item) return null;
    ds = item;
  }
}

const nameMap = (
  require('dcmjs') as { data: { DicomMetaDictionary: { nameMap: Record<string, { tag: string; vr: string }> } } }
).data.DicomMetaDictionary.nameMap;

/** A keyword (StudyDescription) or tag (00081030) as 8 upper-case hex digits, or null if unknown. */
export function tagOf(keywordOrTag: string): string | null {
  if (/^[0-9A-Fa-f]{8}$/.test(keywordOrTag)) return keywordOrTag.toUpperCase();
  const entry = nameMap[keywordOrTag];
  return entry ? entry.tag.replace(/[(),]/g, '').toUpperCase() : null;
}

/** The dictionary VR of a tag (8 hex digits), for an attribute answered without a value. */
export function vrOfTag(tag: string): string {
  const vr = dictionary[`(${tag.slice(0, 4)},${tag.slice(4)})`]?.vr ?? 'UN';
  return vr.includes(' or ') ? vr.split(' or ')[0]! : vr === 'ox' ? 'OW' : vr;
}
