import { describe, expect, it } from 'vitest';
import { parseMultipart } from '../../dicom/multipart.js';
import { bulkDataMultipart, framesMultipart } from './wado-multipart.js';

/**
 * WADO-RS multipart answers as PS3.18 8.6 and RFC 2046 shape them: a boundary of the allowed
 * characters that is no longer than 70, each part typed and naming the resource it holds in its
 * Content-Location, the bytes unchanged.
 */
const EXPLICIT_LE = '1.2.840.10008.1.2.1';
const BCHARS = /^[0-9A-Za-z'()+_,\-./:=?]{1,70}$/;
const url = 'http://pacs.example/dicom-web/studies/1/series/2/instances/3';

describe('WADO-RS multipart answers', () => {
  it('frames: one typed part each, with its own frame URL, bytes unchanged', () => {
    const frames = [Buffer.from([1, 2, 13, 10, 45, 45]), Buffer.from([255, 0, 3])].map((bytes) => ({
      bytes: new Uint8Array(bytes),
      transferSyntaxUid: EXPLICIT_LE,
    }));
    const { body, boundary, transferSyntax } = framesMultipart(frames, [`${url}/frames/2`, `${url}/frames/5`]);
    expect(boundary).toMatch(BCHARS);
    expect(transferSyntax).toBe(EXPLICIT_LE);
    expect(body.subarray(0, boundary.length + 4).toString('latin1')).toBe(`--${boundary}\r\n`);
    expect(body.subarray(-(boundary.length + 8)).toString('latin1')).toBe(`\r\n--${boundary}--\r\n`);
    const parts = parseMultipart(body, boundary);
    expect(parts.map((p) => p.headers)).toEqual([
      {
        'content-type': `application/octet-stream; transfer-syntax=${EXPLICIT_LE}`,
        'content-location': `${url}/frames/2`,
      },
      {
        'content-type': `application/octet-stream; transfer-syntax=${EXPLICIT_LE}`,
        'content-location': `${url}/frames/5`,
      },
    ]);
    expect(parts.map((p) => [...p.body])).toEqual([
      [1, 2, 13, 10, 45, 45],
      [255, 0, 3],
    ]);
  });

  it('frames without locations (the viewer path) have no Content-Location', () => {
    const { body, boundary } = framesMultipart([{ bytes: new Uint8Array([9]), transferSyntaxUid: EXPLICIT_LE }]);
    expect(parseMultipart(body, boundary)[0]!.headers).toEqual({
      'content-type': `application/octet-stream; transfer-syntax=${EXPLICIT_LE}`,
    });
  });

  it('bulk data: one application/octet-stream part located at its BulkDataURI', () => {
    const value = new Uint8Array(Buffer.from('%PDF-1.4\r\n--not a boundary\r\n'));
    const { body, boundary } = bulkDataMultipart(value, `${url}/bulkdata/00420011`);
    expect(boundary).toMatch(BCHARS);
    const parts = parseMultipart(body, boundary);
    expect(parts).toHaveLength(1);
    expect(parts[0]!.headers).toEqual({
      'content-type': 'application/octet-stream',
      'content-location': `${url}/bulkdata/00420011`,
    });
    expect(parts[0]!.body.equals(Buffer.from(value))).toBe(true);
  });

  it('draws a new boundary for each answer', () => {
    const one = bulkDataMultipart(new Uint8Array([1])).boundary;
    const two = bulkDataMultipart(new Uint8Array([1])).boundary;
    expect(one).not.toBe(two);
  });
});
