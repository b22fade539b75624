import { describe, expect, it } from 'vitest';
import { includeFields, paging } from './qido-query.js';

describe('includefield', () => {
  it('takes keywords and tags, comma-separated or repeated, without duplicates', () => {
    expect(includeFields({})).toEqual([]);
    expect(includeFields({ includefield: 'StudyDescription,00100030' })).toEqual(['00081030', '00100030']);
    expect(includeFields({ includefield: ['0020000e', 'SeriesInstanceUID', 'Modality'] })).toEqual([
      '0020000E',
      '00080060',
    ]);
  });

  it("'all' wins over a list", () => {
    expect(includeFields({ includefield: ['Modality', 'all'] })).toBe('all');
  });

  it('refuses an unknown keyword or a malformed tag', () => {
    expect(() => includeFields({ includefield: 'NoSuchAttribute' })).toThrow(/unknown attribute/);
    expect(() => includeFields({ includefield: '0010003' })).toThrow(/unknown attribute/);
  });
});

describe('paging', () => {
  it('defaults to 100, caps at 1000 and ignores nonsense', () => {
    expect(paging({})).toEqual({ limit: 100, offset: 0 });
    expect(paging({ limit: '5000', offset: '20' })).toEqual({ limit: 1000, offset: 20 });
    expect(paging({ limit: '-3', offset: 'x' })).toEqual({ limit: 100, offset: 0 });
  });
});
