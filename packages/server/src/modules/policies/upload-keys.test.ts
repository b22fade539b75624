import { describe, expect, it } from 'vitest';
import { assertSafeKey } from '../../platform/blobs.js';
import { contentMatchesType, parseUploadKey, uploadKey } from './upload-keys.js';

const account = '0f0e6c1e-3f41-4a55-9c4b-0a8f2f0d9e11';

describe('upload keys', () => {
  it('are server-made, safe for the blob store and say kind, owner and type', () => {
    const key = uploadKey('avatars', account, 'image/jpeg');
    expect(key).toMatch(new RegExp(`^uploads/avatars/${account}/[0-9a-f-]{36}\\.jpg$`));
    expect(() => assertSafeKey(key)).not.toThrow();
    expect(parseUploadKey(key)).toEqual({ kind: 'avatars', accountId: account, type: 'image/jpeg' });
    expect(uploadKey('avatars', account, 'image/jpeg')).not.toBe(key);
  });
  it('refuses an account id that could not be part of a key', () => {
    expect(() => uploadKey('forms', '../x', 'application/pdf')).toThrow();
  });
  it.each([
    `uploads/avatars/${account}/../../etc.png`,
    `uploads/avatars/${account}/not-a-uuid.png`,
    `uploads/avatars/${account}/0f0e6c1e-3f41-4a55-9c4b-0a8f2f0d9e11.svg`,
    `uploads/secrets/${account}/0f0e6c1e-3f41-4a55-9c4b-0a8f2f0d9e11.png`,
    `studies/x/0f0e6c1e-3f41-4a55-9c4b-0a8f2f0d9e11.png`,
    `/uploads/avatars/${account}/0f0e6c1e-3f41-4a55-9c4b-0a8f2f0d9e11.png`,
    'https://example.org/me.png',
    '',
  ])('does not take %j for an upload key', (key) => {
    expect(parseUploadKey(key)).toBeNull();
  });
});

describe('contentMatchesType', () => {
  const bytes = (...b: number[]) => Uint8Array.from([...b, ...new Array(16).fill(0)]);
  const text = (s: string) => Uint8Array.from([...Buffer.from(s), ...new Array(16).fill(0)]);
  it('knows each accepted type by its first bytes', () => {
    expect(contentMatchesType('image/png', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe(true);
    expect(contentMatchesType('image/jpeg', bytes(0xff, 0xd8, 0xff, 0xe0))).toBe(true);
    expect(contentMatchesType('image/webp', text('RIFF\x10\x00\x00\x00WEBPVP8 '))).toBe(true);
    expect(contentMatchesType('image/gif', text('GIF89a'))).toBe(true);
    expect(contentMatchesType('image/bmp', text('BM'))).toBe(true);
    expect(contentMatchesType('image/tiff', bytes(0x49, 0x49, 0x2a, 0x00))).toBe(true);
    expect(contentMatchesType('application/pdf', text('%PDF-1.7'))).toBe(true);
    expect(contentMatchesType('application/msword', bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1))).toBe(true);
    expect(
      contentMatchesType(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        bytes(0x50, 0x4b, 0x03, 0x04),
      ),
    ).toBe(true);
  });
  it('refuses a file whose bytes are of another type', () => {
    expect(contentMatchesType('image/png', text('<html><script>'))).toBe(false);
    expect(contentMatchesType('image/jpeg', text('%PDF-1.7'))).toBe(false);
    expect(contentMatchesType('image/webp', text('RIFF\x10\x00\x00\x00WAVE'))).toBe(false);
    expect(contentMatchesType('application/pdf', new Uint8Array(0))).toBe(false);
  });
});
