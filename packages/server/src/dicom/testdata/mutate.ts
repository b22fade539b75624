/**
 * Deterministic fuzz inputs derived from one valid file: what a hostile or broken modality
 * might send to ingest, C-STORE or STOW. Each mutation is reproducible from (seed, index), so a
 * failing case can be regenerated alone.
 */
import { part10Layout, type ElementPosition } from './walk.js';
import { ITEM, ITEM_DELIMITER, SEQUENCE_DELIMITER, UNDEFINED_LENGTH, delimiter, header, tag } from './writer.js';

export const MUTATION_KINDS = [
  'bit-flip',
  'byte-run',
  'truncate',
  'huge-length',
  'overrun-length',
  'absurd-dimensions',
  'deep-sequence',
  'deep-sequence-unterminated',
  'no-dicm',
  'no-preamble',
  'random-after-dicm',
  'random-bytes',
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

/** Nesting depth of the deep-sequence mutations: far beyond any real object. */
export const DEEP_SEQUENCE_DEPTH = 10_000;
export const HUGE_LENGTH = 0xfffffff0;

export interface Mutation {
  kind: MutationKind;
  index: number;
  bytes: Buffer;
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max). */
  int(min: number, max: number): number;
}

/** mulberry32: tiny, fast, and good enough to spread fuzz offsets. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min, max) => min + Math.floor(next() * (max - min)) };
}

function randomBytes(rng: Rng, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    b[i] = rng.int(0, 256);
  }
  return b;
}

function pick<T>(rng: Rng, list: readonly T[]): T {
  if (list.length === 0) {
    throw new Error('nothing to pick from');
  }
  return list[rng.int(0, list.length)]!;
}

/** Offsets in the first few KB are where parsers decide things; hit them more often. */
function offset(rng: Rng, length: number): number {
  return rng.next() < 0.5 ? rng.int(0, Math.min(length, 2048)) : rng.int(0, length);
}

function setLength(bytes: Buffer, el: ElementPosition, value: number): void {
  if (el.lengthBytes === 4) {
    bytes.writeUInt32LE(value >>> 0, el.lengthOffset);
  } else {
    bytes.writeUInt16LE(value & 0xffff, el.lengthOffset);
  }
}

/** `bytes` `times` over. */
function repeated(bytes: Buffer, times: number): Buffer {
  const out = Buffer.alloc(bytes.length * times);
  for (let i = 0; i < times; i++) {
    bytes.copy(out, i * bytes.length);
  }
  return out;
}

/**
 * `valid` (a Part 10 file) with `depth` nested ContentSequence items inserted where (0040,A730)
 * belongs in tag order, each item and sequence terminated; unterminated, the rest of the file
 * (pixel data) lands `depth` levels deep, then EOF.
 */
export function nestedSequences(valid: Buffer, depth: number, terminated = true): Buffer {
  const layout = part10Layout(valid);
  const contentSequence = tag(0x0040, 0xa730);
  const before = layout.dataset.find((e) => e.tag > contentSequence);
  const at = before ? before.headerOffset : valid.length;
  const open = Buffer.concat([
    header(contentSequence, 'SQ', UNDEFINED_LENGTH, layout.explicitVr),
    delimiter(ITEM, UNDEFINED_LENGTH),
  ]);
  const close = Buffer.concat([delimiter(ITEM_DELIMITER, 0), delimiter(SEQUENCE_DELIMITER, 0)]);
  const parts = [valid.subarray(0, at), repeated(open, depth)];
  if (terminated) {
    parts.push(repeated(close, depth));
  }
  parts.push(valid.subarray(at));
  return Buffer.concat(parts);
}

/** One mutation of `valid` (a Part 10 file from the generator). */
export function mutate(valid: Buffer, kind: MutationKind, rng: Rng): Buffer {
  const layout = () => part10Layout(valid);
  switch (kind) {
    case 'bit-flip': {
      const out = Buffer.from(valid);
      for (let n = rng.int(1, 9); n > 0; n--) {
        const o = offset(rng, out.length);
        out[o] = out[o]! ^ (1 << rng.int(0, 8));
      }
      return out;
    }
    case 'byte-run': {
      const out = Buffer.from(valid);
      const start = offset(rng, out.length);
      const end = Math.min(out.length, start + rng.int(4, 257));
      const fill = pick(rng, [0x00, 0xff, rng.int(0, 256)]);
      out.fill(fill, start, end);
      return out;
    }
    case 'truncate':
      return Buffer.from(valid.subarray(0, offset(rng, valid.length)));
    case 'huge-length': {
      const l = layout();
      const out = Buffer.from(valid);
      const candidates = [...l.meta, ...l.dataset].filter((e) => e.lengthBytes === 4);
      setLength(out, pick(rng, candidates), HUGE_LENGTH);
      return out;
    }
    case 'overrun-length': {
      // A short-form length pointing past its neighbours (or past the end of the file).
      const l = layout();
      const out = Buffer.from(valid);
      const el = pick(
        rng,
        l.dataset.filter((e) => e.length !== UNDEFINED_LENGTH),
      );
      setLength(out, el, el.lengthBytes === 2 ? 0xfffe : valid.length);
      return out;
    }
    case 'absurd-dimensions': {
      const out = Buffer.from(valid);
      for (const e of layout().dataset) {
        if (e.tag === tag(0x0028, 0x0010) || e.tag === tag(0x0028, 0x0011)) {
          out.writeUInt16LE(0xffff, e.valueOffset);
        }
      }
      return out;
    }
    case 'deep-sequence':
      return nestedSequences(valid, DEEP_SEQUENCE_DEPTH, true);
    case 'deep-sequence-unterminated':
      return nestedSequences(valid, DEEP_SEQUENCE_DEPTH, false);
    case 'no-dicm': {
      const out = Buffer.from(valid);
      out.fill(0, 128, 132);
      return out;
    }
    case 'no-preamble':
      return Buffer.from(valid.subarray(132));
    case 'random-after-dicm':
      return Buffer.concat([valid.subarray(0, 132), randomBytes(rng, rng.int(0, 4096))]);
    case 'random-bytes':
      return randomBytes(rng, rng.int(0, 65_536));
  }
}

/**
 * `count` mutations cycling through every kind; mutation i uses its own generator seeded from
 * (seed, i), so `mutate(valid, kind, seededRng(mutationSeed(seed, i)))` reproduces it alone.
 */
export function* mutations(valid: Buffer, seed: number, count: number): Generator<Mutation> {
  for (let index = 0; index < count; index++) {
    const kind = MUTATION_KINDS[index % MUTATION_KINDS.length]!;
    yield { kind, index, bytes: mutate(valid, kind, seededRng(mutationSeed(seed, index))) };
  }
}

export function mutationSeed(seed: number, index: number): number {
  return (Math.imul(seed ^ 0x5bd1e995, 0x27d4eb2d) + Math.imul(index + 1, 0x9e3779b1)) >>> 0;
}
