import { describe, expect, it } from 'vitest';
import { attachmentUploadKind, MAX_FILES_PER_UPLOAD_CODE } from './upload-codes.js';
import { uploadRules } from './policies.js';

describe('attachment kinds', () => {
  it('follow the forms and attachments upload rules and the six-file limit', () => {
    expect(uploadRules[attachmentUploadKind.form].accept).toContain('application/pdf');
    expect(uploadRules[attachmentUploadKind.attachment].accept).toContain(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(MAX_FILES_PER_UPLOAD_CODE).toBe(6);
  });
});
