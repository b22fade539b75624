import { describe, expect, it } from 'vitest';
import { freshCodes } from './fresh-codes.js';

/** A draw that answers these codes in turn, then repeats the last. */
const sequence = (codes: string[]) => {
  let i = 0;
  return () => codes[Math.min(i++, codes.length - 1)]!;
};

describe('freshCodes', () => {
  it('draws again for a code already in use and never answers one', async () => {
    const used = new Set(['A', 'B']);
    const asked: string[][] = [];
    const got = await freshCodes(2, sequence(['A', 'C', 'B', 'D']), async (c) => {
      asked.push([...c]);
      return new Set(c.filter((x) => used.has(x)));
    });
    expect(got.sort()).toEqual(['C', 'D']);
    expect(asked).toEqual([['A', 'C'], ['B'], ['D']]);
  });

  it('answers n distinct codes when the draw repeats itself', async () => {
    const got = await freshCodes(3, sequence(['X', 'X', 'Y', 'X', 'Z']), async () => new Set());
    expect(got.sort()).toEqual(['X', 'Y', 'Z']);
  });

  it('answers nothing without asking when none is wanted', async () => {
    let asked = 0;
    expect(
      await freshCodes(
        0,
        () => 'A',
        async () => (asked++, new Set()),
      ),
    ).toEqual([]);
    expect(asked).toBe(0);
  });

  it('refuses with a conflict when every code it can draw is in use', async () => {
    await expect(
      freshCodes(
        1,
        () => 'A',
        async (c) => new Set(c),
      ),
    ).rejects.toMatchObject({ code: 'Conflict' });
  });

  it('a random six-digit draw of a busy day finds free numbers (a thousand in use)', async () => {
    const used = new Set(Array.from({ length: 1000 }, (_, i) => String(i * 997).padStart(6, '0')));
    const draw = () => String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0');
    const got = await freshCodes(50, draw, async (c) => new Set(c.filter((x) => used.has(x))));
    expect(new Set(got).size).toBe(50);
    for (const c of got) expect(used.has(c)).toBe(false);
  });
});
