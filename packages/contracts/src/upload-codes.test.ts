import { describe, expect, it } from 'vitest';
import { attachmentUploadKind, MAX_FILES_PER_UPLOAD_CODE, maskPatientName } from './upload-codes.js';
import { uploadRules } from './policies.js';

describe('maskPatientName', () => {
  it.each([
    ['王小东', '王*东'],
    ['欧阳小明', '欧*明'],
    ['王东', '王*'],
    ['王', '*'],
    ['', ''],
    ['Zhang^San', 'Z*n'],
    ['  Secret^^Patient ', 'S*t'],
  ])('%j → %j', (name, masked) => {
    expect(maskPatientName(name)).toBe(masked);
  });
  it('never shows more than two characters of the name', () => {
    const masked = maskPatientName('司马相如的名字很长');
    expect(Array.from(masked.replace('*', '')).length).toBeLessThanOrEqual(2);
  });
});

describe('attachment kinds', () => {
  it('follow the forms and attachments upload rules and the six-file limit', () => {
    expect(uploadRules[attachmentUploadKind.form].accept).toContain('application/pdf');
    expect(uploadRules[attachmentUploadKind.attachment].accept).toContain(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(MAX_FILES_PER_UPLOAD_CODE).toBe(6);
  });
});
