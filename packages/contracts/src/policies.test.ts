import { describe, expect, it } from 'vitest';
import { MAX_REPORT_IMAGE_BYTES } from './limits.js';
import {
  checkUpload,
  resolveUploadType,
  uploadKinds,
  uploadPolicyQuerySchema,
  uploadRules,
  uploadTypes,
} from './policies.js';

const MB = 1024 * 1024;

describe('upload rules', () => {
  it('has a rule for every kind, each type with an extension', () => {
    for (const kind of uploadKinds) {
      expect(uploadRules[kind].maxBytes).toBeGreaterThan(0);
      for (const type of uploadRules[kind].accept) expect(uploadTypes[type]).toMatch(/^[a-z]+$/);
    }
  });
  it('takes report images as spec 000 §9 says: png or jpeg of at most 5M', () => {
    expect(uploadRules.images).toEqual({ maxBytes: MAX_REPORT_IMAGE_BYTES, accept: ['image/png', 'image/jpeg'] });
    expect(MAX_REPORT_IMAGE_BYTES).toBe(5 * MB);
  });
  it.each([
    ['avatars', 'image/png', 2 * MB, null],
    ['avatars', 'image/webp', 1, null],
    ['avatars', 'image/png', 2 * MB + 1, 'FileTooLarge'],
    ['avatars', 'application/pdf', 10, 'FileTypeNotAllowed'],
    ['avatars', 'image/svg+xml', 10, 'FileTypeNotAllowed'],
    ['images', 'image/jpeg', 5 * MB, null],
    ['images', 'image/jpeg', 5 * MB + 1, 'FileTooLarge'],
    ['images', 'image/webp', 10, 'FileTypeNotAllowed'],
    ['forms', 'application/pdf', 20 * MB, null],
    ['forms', 'image/tiff', 10, null],
    ['forms', 'application/pdf', 20 * MB + 1, 'FileTooLarge'],
    ['forms', 'application/msword', 10, 'FileTypeNotAllowed'],
    ['attachments', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 50 * MB, null],
    ['attachments', 'application/msword', 10, null],
    ['attachments', 'application/pdf', 50 * MB + 1, 'FileTooLarge'],
    ['attachments', 'text/html', 10, 'FileTypeNotAllowed'],
    ['attachments', 'application/x-msdownload', 10, 'FileTypeNotAllowed'],
    ['avatars', 'image/png', 0, 'EmptyFile'],
    ['avatars', '', 10, 'FileTypeNotAllowed'],
  ] as const)('%s: %s of %d bytes → %s', (kind, type, size, problem) => {
    expect(checkUpload(kind, type, size)).toBe(problem);
  });
});

describe('resolveUploadType', () => {
  it('lower-cases and drops parameters', () => {
    expect(resolveUploadType('Image/PNG; charset=binary')).toBe('image/png');
  });
  it('falls back on the extension when the browser does not know the type', () => {
    expect(resolveUploadType('', 'report.DOCX')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(resolveUploadType('application/octet-stream', 'scan.jpeg')).toBe('image/jpeg');
    expect(resolveUploadType(undefined, 'x.tiff')).toBe('image/tiff');
  });
  it('never lets the extension override a type the browser named', () => {
    expect(resolveUploadType('text/html', 'evil.png')).toBe('text/html');
  });
  it('answers the unknown as it is', () => {
    expect(resolveUploadType('', 'x.exe')).toBe('');
    expect(resolveUploadType('application/octet-stream', 'noext')).toBe('application/octet-stream');
  });
});

describe('uploadPolicyQuerySchema', () => {
  it('reads the size from the query string', () => {
    expect(uploadPolicyQuerySchema.parse({ contentType: 'image/png', size: '1024' })).toEqual({
      contentType: 'image/png',
      size: 1024,
    });
  });
  it.each([{}, { size: 'x' }, { size: '-1' }, { size: '1.5' }, { size: '1', contentType: 'x'.repeat(129) }])(
    'refuses %j',
    (query) => {
      expect(uploadPolicyQuerySchema.safeParse(query).success).toBe(false);
    },
  );
});
