import { describe, expect, it } from 'vitest';
import { decodeDicomText, isKnownCharset } from './charset.js';

const hex = (s: string) =>
  Uint8Array.from(
    s
      .split(/\s+/)
      .filter(Boolean)
      .map((h) => parseInt(h, 16)),
  );

/** Examples from DICOM PS3.5 Annexes H, I, J and K. */
describe('decodeDicomText', () => {
  it('decodes Japanese with ISO 2022 IR 87 escapes (PS3.5 H.3.1)', () => {
    const bytes = hex(
      '59 61 6d 61 64 61 5e 54 61 72 6f 75 3d 1b 24 42 3b 33 45 44 1b 28 42 5e 1b 24 42 42 40 4f 3a 1b 28 42 3d 1b 24 42 24 64 24 5e 24 40 1b 28 42 5e 1b 24 42 24 3f 24 6d 24 26 1b 28 42',
    );
    expect(decodeDicomText(bytes, '\\ISO 2022 IR 87', 'PN')).toBe('Yamada^Tarou=山田^太郎=やまだ^たろう');
  });

  it('decodes Korean with ISO 2022 IR 149 (PS3.5 I.2)', () => {
    const bytes = hex(
      '48 6f 6e 67 5e 47 69 6c 64 6f 6e 67 3d 1b 24 29 43 fb f3 5e 1b 24 29 43 d1 ce d4 d7 3d 1b 24 29 43 c8 ab 5e 1b 24 29 43 b1 e6 b5 bf',
    );
    expect(decodeDicomText(bytes, '\\ISO 2022 IR 149', 'PN')).toBe('Hong^Gildong=洪^吉洞=홍^길동');
  });

  it('decodes Chinese in GB18030 (PS3.5 J.3)', () => {
    const bytes = hex('57 61 6e 67 5e 58 69 61 6f 44 6f 6e 67 3d cd f5 5e d0 a1 b6 ab 3d');
    expect(decodeDicomText(bytes, 'GB18030', 'PN')).toBe('Wang^XiaoDong=王^小东=');
  });

  it('decodes Chinese in GB2312 through ISO 2022 IR 58 (PS3.5 K.2)', () => {
    const bytes = hex(
      '5a 68 61 6e 67 5e 58 69 61 6f 44 6f 6e 67 3d 1b 24 29 41 d5 c5 5e 1b 24 29 41 d0 a1 b6 ab 3d 20',
    );
    expect(decodeDicomText(bytes, '\\ISO 2022 IR 58', 'PN')).toBe('Zhang^XiaoDong=张^小东=');
  });

  it('decodes GBK, including characters outside GB2312', () => {
    const bytes = Uint8Array.from([0xd5, 0xc5, 0x5e, 0x95, 0x4e]); // 张^昉? — 0x954E is 昉 only in GBK
    expect(decodeDicomText(bytes, 'GBK', 'PN')).toBe(new TextDecoder('gbk').decode(bytes));
    expect(decodeDicomText(bytes, 'GBK', 'PN').startsWith('张^')).toBe(true);
  });

  it('decodes UTF-8 (ISO_IR 192) and trims padding', () => {
    expect(decodeDicomText(new TextEncoder().encode('李四^明 '), 'ISO_IR 192', 'PN')).toBe('李四^明');
  });

  it('decodes Latin-1 as ISO 8859-1, the default repertoire likewise', () => {
    const bytes = hex('42 75 63 5e 4a e9 72 f4 6d 65');
    expect(decodeDicomText(bytes, 'ISO_IR 100', 'PN')).toBe('Buc^Jérôme');
    expect(decodeDicomText(hex('44 4f 45 5e 4a 4f 48 4e 00'), undefined, 'PN')).toBe('DOE^JOHN');
    expect(decodeDicomText(hex('80'), 'ISO_IR 100')).toBe('\u0080');
  });

  it('decodes Cyrillic (ISO_IR 144)', () => {
    expect(decodeDicomText(hex('bb ee ea e1 e5 dc d1 e3 e0 d3'), 'ISO_IR 144', 'PN')).toBe(
      new TextDecoder('iso-8859-5').decode(hex('bb ee ea e1 e5 dc d1 e3 e0 d3')),
    );
  });

  it('knows the defined terms and flags unknown ones', () => {
    for (const t of [
      '',
      'ISO_IR 100',
      'ISO_IR 192',
      'GB18030',
      'GBK',
      '\\ISO 2022 IR 58',
      'ISO 2022 IR 6\\ISO 2022 IR 87',
    ]) {
      expect(isKnownCharset(t), t).toBe(true);
    }
    expect(isKnownCharset('KLINGON')).toBe(false);
  });
});
