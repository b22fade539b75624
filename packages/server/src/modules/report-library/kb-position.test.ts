import { describe, expect, it } from 'vitest';
import {
  MIN_POSITION_GAP,
  POSITION_STEP,
  appendPosition,
  applyPlacement,
  placeAfter,
  type Positioned,
} from './kb-position.js';

const items = (...ids: string[]): Positioned[] => ids.map((id, i) => ({ id, position: (i + 1) * POSITION_STEP }));
const order = (list: Positioned[]) => list.map((s) => s.id).join('');

describe('appendPosition', () => {
  it('starts at one step and goes one step past the last', () => {
    expect(appendPosition([])).toBe(POSITION_STEP);
    expect(appendPosition(items('a', 'b'))).toBe(3 * POSITION_STEP);
  });
});

describe('placeAfter', () => {
  it('puts an item first with preId null, one step before the first', () => {
    const siblings = items('a', 'b', 'c');
    const p = placeAfter(siblings, 'c', null);
    expect(p).toEqual({ kind: 'set', position: 0 });
    expect(order(applyPlacement(siblings, 'c', p!))).toBe('cab');
  });

  it('takes the midpoint between preId and the next sibling', () => {
    const siblings = items('a', 'b', 'c');
    const p = placeAfter(siblings, 'c', 'a');
    expect(p).toEqual({ kind: 'set', position: 1.5 * POSITION_STEP });
    expect(order(applyPlacement(siblings, 'c', p!))).toBe('acb');
  });

  it('goes one step past the last when preId is the last', () => {
    const siblings = items('a', 'b', 'c');
    const p = placeAfter(siblings, 'a', 'c');
    expect(p).toEqual({ kind: 'set', position: 4 * POSITION_STEP });
    expect(order(applyPlacement(siblings, 'a', p!))).toBe('bca');
  });

  it('places an item arriving from another folder (not among the siblings)', () => {
    expect(placeAfter(items('a', 'b'), 'x', 'a')).toEqual({ kind: 'set', position: 1.5 * POSITION_STEP });
    expect(placeAfter([], 'x', null)).toEqual({ kind: 'set', position: POSITION_STEP });
  });

  it('keeps an item where it is when it already follows preId', () => {
    const siblings = items('a', 'b', 'c');
    expect(order(applyPlacement(siblings, 'b', placeAfter(siblings, 'b', 'a')!))).toBe('abc');
  });

  it('answers null when preId is not another sibling', () => {
    expect(placeAfter(items('a', 'b'), 'b', 'zz')).toBeNull();
    expect(placeAfter(items('a', 'b'), 'b', 'b')).toBeNull();
  });

  it('renumbers the siblings when the gap is too small for another midpoint', () => {
    const siblings: Positioned[] = [
      { id: 'a', position: 1 },
      { id: 'b', position: 1 + MIN_POSITION_GAP / 2 },
      { id: 'c', position: 5 },
    ];
    const p = placeAfter(siblings, 'c', 'a');
    expect(p?.kind).toBe('renumber');
    const after = applyPlacement(siblings, 'c', p!);
    expect(order(after)).toBe('acb');
    expect(after.map((s) => s.position)).toEqual([1, 2, 3].map((n) => n * POSITION_STEP));
  });

  it('keeps order over many moves into the same gap, renumbering when needed', () => {
    let siblings = items('a', 'b');
    const expected = ['a', 'b'];
    let renumbered = 0;
    // Each new item goes right after 'a': the gap after 'a' halves every time.
    for (let n = 0; n < 200; n++) {
      const id = `n${n}`;
      const p = placeAfter(siblings, id, 'a')!;
      if (p.kind === 'renumber') renumbered++;
      siblings = applyPlacement([...siblings], id, p);
      expected.splice(1, 0, id);
      expect(siblings.map((s) => s.id)).toEqual(expected);
    }
    expect(renumbered).toBeGreaterThan(0);
    // Positions stay strictly increasing.
    for (let i = 1; i < siblings.length; i++) expect(siblings[i]!.position).toBeGreaterThan(siblings[i - 1]!.position);
  });
});
