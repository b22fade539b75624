import { describe, expect, it } from 'vitest';
import { textArrayLiteral } from './sql.js';

describe('textArrayLiteral', () => {
  it('quotes every element and escapes quotes and backslashes', () => {
    expect(textArrayLiteral([])).toBe('{}');
    expect(textArrayLiteral(['a'])).toBe('{"a"}');
    expect(textArrayLiteral(['a,b', '{c}', 'NULL', ''])).toBe('{"a,b","{c}","NULL",""}');
    expect(textArrayLiteral(['say "hi"', 'C:\\dir'])).toBe('{"say \\"hi\\"","C:\\\\dir"}');
    expect(textArrayLiteral(['张伟 ZHANG^WEI'])).toBe('{"张伟 ZHANG^WEI"}');
  });
});
