import { describe, expect, it } from 'vitest';
import { boundaryOf, closing, MultipartSplitter, parseMultipart, partHeader, type Part } from './multipart.js';

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

  /** A small deterministic generator, so a failure can be replayed. */
  function rng(seed: number) {
    let x = seed;
    return (n: number) => {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      return x % n;
    };
  }

  /** Bytes rich in what a splitter can trip on: CR, LF, dashes and pieces of the boundary. */
  function trickyBytes(next: (n: number) => number, boundary: string, length: number): Buffer {
    const alphabet = Buffer.from(`\r\n--${boundary.slice(0, -1)}x\u0000\u00ff`, 'latin1');
    return Buffer.from(Array.from({ length }, () => alphabet[next(alphabet.length)]!));
  }

  function splitInChunks(body: Buffer, sizes: (n: number) => number, boundary: string): Part[] {
    const splitter = new MultipartSplitter(boundary);
    const parts: Part[] = [];
    for (let at = 0; at < body.length;) {
      const size = 1 + sizes(40);
      parts.push(...splitter.push(body.subarray(at, at + size)));
      at += size;
    }
    splitter.end();
    return parts;
  }

  it('splits a streamed body into the same parts however it is cut into chunks', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = rng(seed);
      const boundary = `b${seed}-${'z'.repeat(next(12))}`;
      const bodies = Array.from({ length: next(5) }, () => trickyBytes(next, boundary, next(120)));
      const body = Buffer.concat([
        Buffer.from(next(2) ? 'preamble --b\r\n' : ''),
        ...bodies.map((b, i) =>
          Buffer.concat([
            partHeader(boundary, 'application/dicom', { 'Content-ID': String(i) }),
            b,
            Buffer.from('\r\n'),
          ]),
        ),
        Buffer.from(`--${boundary}--\r\nepilogue --${boundary}\r\n`),
      ]);
      const whole = parseMultipart(body, boundary);
      expect(whole.map((p) => p.body.toString('latin1'))).toEqual(bodies.map((b) => b.toString('latin1')));
      expect(whole.map((p) => p.headers['content-id'])).toEqual(bodies.map((_, i) => String(i)));
      for (const cut of [() => 0, next]) {
        const parts = splitInChunks(body, cut, boundary);
        expect(parts.map((p) => p.body.toString('latin1'))).toEqual(bodies.map((b) => b.toString('latin1')));
        expect(parts.map((p) => p.headers)).toEqual(whole.map((p) => p.headers));
      }
    }
  });

  it('answers each part as soon as its closing delimiter arrives, and drops an unterminated last part', () => {
    const splitter = new MultipartSplitter('B');
    expect(splitter.push(Buffer.from('--B\r\nContent-Type: application/dicom\r\n\r\nfirst\r\n'))).toEqual([]);
    const [first] = splitter.push(Buffer.from('--B\r\n\r\nsecond part without headers'));
    expect(first!.body.toString()).toBe('first');
    expect(first!.headers).toEqual({ 'content-type': 'application/dicom' });
    expect(splitter.push(Buffer.from(' and more'))).toEqual([]);
    splitter.end();
    expect(splitter.push(Buffer.from('\r\n--B--'))).toEqual([]);
  });

  it('refuses a part header that never ends', () => {
    const splitter = new MultipartSplitter('B');
    splitter.push(Buffer.from('--B\r\nX-Long: '));
    expect(() => {
      for (let i = 0; i < 20; i++) splitter.push(Buffer.alloc(1024, 0x61));
    }).toThrow(/too long/);
  });
});
