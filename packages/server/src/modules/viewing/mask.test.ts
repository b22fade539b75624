import { describe, expect, it } from 'vitest';
import { maskMetadata } from './mask.js';
import { sniffImage } from './report-images.js';

describe('maskMetadata', () => {
  const json = {
    '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Zhang^Wei', Ideographic: '张^伟' }] },
    '00100020': { vr: 'LO', Value: ['RH0001234'] },
    '00101000': { vr: 'LO', Value: ['A1', 'XYZ98765'] },
    '00080050': { vr: 'SH', Value: ['RH-A-0001'] },
    '00100030': { vr: 'DA', Value: ['19680312'] },
    '00101040': { vr: 'LO', Value: ['1 Main St'] },
    '00102154': { vr: 'SH', Value: ['13800138000'] },
    '00100040': { vr: 'CS', Value: ['M'] },
    '00280010': { vr: 'US', Value: [512] },
  };

  it('masks the name and identifiers, empties birth date and address, keeps the rest', () => {
    const out = maskMetadata(json, '张伟');
    expect(out['00100010']).toEqual({ vr: 'PN', Value: [{ Alphabetic: '张*' }] });
    expect(out['00100020']).toEqual({ vr: 'LO', Value: ['RH*****34'] });
    expect(out['00101000']).toEqual({ vr: 'LO', Value: ['**', 'XY****65'] });
    expect(out['00080050']!.Value![0]).not.toContain('0001');
    expect(out['00102154']!.Value![0]).toMatch(/^13\*+00$/);
    expect(out['00100030']).toEqual({ vr: 'DA' });
    expect(out['00101040']).toEqual({ vr: 'LO' });
    expect(out['00100040']).toEqual(json['00100040']);
    expect(out['00280010']).toEqual(json['00280010']);
    // the input is not changed
    expect(json['00100020'].Value[0]).toBe('RH0001234');
  });

  it('falls back to the stored name and leaves absent attributes absent', () => {
    expect(maskMetadata({ '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Li^Ming' }] } }, '')['00100010']).toEqual({
      vr: 'PN',
      Value: [{ Alphabetic: 'L*g' }],
    });
    expect(maskMetadata({}, '张伟')).toEqual({});
  });
});

describe('sniffImage', () => {
  it('knows PNG and JPEG by their first bytes only', () => {
    expect(sniffImage(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('image/png');
    expect(sniffImage(Buffer.from('ffd8ffe000', 'hex'))).toBe('image/jpeg');
    expect(sniffImage(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffImage(Buffer.from('89504e47', 'hex'))).toBeNull();
    expect(sniffImage(new Uint8Array(0))).toBeNull();
  });
});
