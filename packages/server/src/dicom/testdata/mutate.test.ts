import { describe, expect, it } from 'vitest';
import { generateCtInstance } from './generate.js';
import {
  DEEP_SEQUENCE_DEPTH,
  HUGE_LENGTH,
  MUTATION_KINDS,
  type MutationKind,
  mutate,
  mutationSeed,
  mutations,
  seededRng,
} from './mutate.js';
import { part10Layout } from './walk.js';
import { IMPLICIT_VR_LE, tag } from './writer.js';

const valid = generateCtInstance({ rows: 32, columns: 32 }).bytes;

function byKind(seed: number): Map<MutationKind, Buffer> {
  const out = new Map<MutationKind, Buffer>();
  for (const m of mutations(valid, seed, MUTATION_KINDS.length)) {
    out.set(m.kind, m.bytes);
  }
  return out;
}

describe('mutations', () => {
  it('is deterministic per seed and covers every kind', () => {
    const a = [...mutations(valid, 42, 36)];
    const b = [...mutations(valid, 42, 36)];
    expect(a.map((m) => m.kind)).toEqual(b.map((m) => m.kind));
    expect(a.every((m, i) => m.bytes.equals(b[i]!.bytes))).toBe(true);
    expect(new Set(a.map((m) => m.kind))).toEqual(new Set(MUTATION_KINDS));
    const c = [...mutations(valid, 43, 36)];
    expect(c.some((m, i) => !m.bytes.equals(a[i]!.bytes))).toBe(true);
  });

  it('changes the file in every mutation', () => {
    for (const m of mutations(valid, 7, 120)) {
      expect(m.bytes.equals(valid), `${m.kind} #${m.index}`).toBe(false);
    }
  });

  it('reproduces one mutation alone from (seed, index)', () => {
    const fifth = [...mutations(valid, 9, 6)][5]!;
    expect(mutate(valid, fifth.kind, seededRng(mutationSeed(9, 5))).equals(fifth.bytes)).toBe(true);
  });

  it('builds the structural cases it names', () => {
    const m = byKind(1);
    const lengths = (b: Buffer) => {
      const l = part10Layout(b);
      return [...l.meta, ...l.dataset].filter((e) => e.lengthBytes === 4).map((e) => b.readUInt32LE(e.lengthOffset));
    };
    expect(lengths(m.get('huge-length')!)).toContain(HUGE_LENGTH);

    const dims = part10Layout(m.get('absurd-dimensions')!).dataset.filter(
      (e) => e.tag === tag(0x0028, 0x0010) || e.tag === tag(0x0028, 0x0011),
    );
    expect(dims.map((e) => m.get('absurd-dimensions')!.readUInt16LE(e.valueOffset))).toEqual([65535, 65535]);

    // Terminated nesting is still well-formed: the walker finds the sequence and pixel data after it.
    const deep = m.get('deep-sequence')!;
    const tags = part10Layout(deep).dataset.map((e) => e.tag);
    expect(tags.slice(-2)).toEqual([tag(0x0040, 0xa730), tag(0x7fe0, 0x0010)]);
    expect(deep.length - valid.length).toBe(DEEP_SEQUENCE_DEPTH * 36);
    expect(m.get('deep-sequence-unterminated')!.length - valid.length).toBe(DEEP_SEQUENCE_DEPTH * 20);

    expect(m.get('no-dicm')!.toString('latin1', 128, 132)).not.toBe('DICM');
    expect(m.get('no-preamble')!.length).toBe(valid.length - 132);
    expect(m.get('truncate')!.length).toBeLessThan(valid.length);
  });

  it('works on implicit VR files too', () => {
    const implicit = generateCtInstance({ rows: 8, columns: 8, transferSyntax: IMPLICIT_VR_LE }).bytes;
    expect(part10Layout(implicit).explicitVr).toBe(false);
    const kinds = [...mutations(implicit, 3, MUTATION_KINDS.length)].map((m) => m.kind);
    expect(kinds).toEqual([...MUTATION_KINDS]);
  });
});
