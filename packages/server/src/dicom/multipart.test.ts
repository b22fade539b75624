import { describe, expect, it } from 'vitest';
import { boundaryOf, closing, parseMultipart, partHeader } from './multipart.js';

describe('multipart/related', () => {
  it('reads the boundary, quoted or not', () => {
    expect(boundaryOf('multipart/related; type="application/dicom"; boundary=abc123')).toBe('abc123');
    expect(boundaryOf('multipart/related; boundary="a b"; type=application/dicom')).toBe('a b');
    expect(boundaryOf('application/json')).toBeNull();
  });

  it('round-trips binary parts', () => {
    const b = 'XyZ';
    const one = Buffer.from([0, 1, 2, 13, 10, 45, 45, 255]);
    const two = Buffer.from('second part');
    const body = Buffer.concat([
      partHeader(b, 'application/dicom'),
      one,
      Buffer.from('\r\n'),
      partHeader(b, 'application/dicom', { 'Content-Location': 'x' }),
      two,
      closing(b),
    ]);
    const parts = parseMultipart(body, b);
    expect(parts).toHaveLength(2);
    expect(parts[0]!.body.equals(one)).toBe(true);
    expect(parts[1]!.body.toString()).toBe('second part');
    expect(parts[1]!.headers['content-location']).toBe('x');
  });

  it('answers no parts for a body without the boundary and caps the part count', () => {
    expect(parseMultipart(Buffer.from('nothing here'), 'b')).toEqual([]);
    const many = Buffer.concat([
      ...Array.from({ length: 5 }, () => Buffer.concat([partHeader('b', 'x'), Buffer.from('1\r\n')])),
      closing('b'),
    ]);
    expect(() => parseMultipart(many, 'b', 3)).toThrow(/more than 3/);
  });
});
