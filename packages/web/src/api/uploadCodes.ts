import {
  attachmentCalls,
  type AttachmentKind,
  type CodeUpload,
  type ExamAttachmentList,
  type ServiceAttachment,
  type Signature,
  type UploadCode,
  type UploadPolicy,
} from '@yyp/contracts';
import { callApi } from './call';
import { apiRequest } from './client';

/**
 * Calls of upload codes (spec 001 §7 "Signature" and "Service attachments"; the attachment ones
 * from contracts attachmentCalls). The code pages run without an account: their calls are
 * anonymous and the code in the query is the only credential.
 */
type FileFacts = Pick<File, 'type' | 'size' | 'name'>;

const fileQuery = (code: string, file: FileFacts) => ({
  code,
  contentType: file.type,
  size: file.size,
  fileName: file.name,
});
const anonymous = { anonymous: true } as const;

export const fetchMySignature = () => apiRequest<Signature>('signature/mine');
export const setMySignature = (key: string) =>
  apiRequest<Signature>('signature/mine', { method: 'PUT', body: { url: key } });
export const removeMySignature = () => apiRequest<Signature>('signature/mine', { method: 'DELETE' });
export const issueSignatureCode = () => apiRequest<UploadCode>('signature/code', { method: 'POST' });

export const fetchSignaturePolicy = (code: string, file: FileFacts) =>
  apiRequest<UploadPolicy>('signature/policies', { query: fileQuery(code, file), ...anonymous });
export const setSignatureByCode = (code: string, key: string) =>
  apiRequest<Signature>('signature', { method: 'POST', body: { code, url: key }, ...anonymous });

export const issueAttachmentCode = (examId: string, kind: AttachmentKind): Promise<UploadCode> =>
  callApi(attachmentCalls.issueCode, { params: { examId }, body: { kind } });
export const fetchExamAttachments = (examId: string): Promise<ExamAttachmentList> =>
  callApi(attachmentCalls.examList, { params: { examId } });

export const fetchServiceAttachment = (code: string): Promise<ServiceAttachment> =>
  callApi(attachmentCalls.describe, { query: { code } }, anonymous);
export const fetchAttachmentPolicy = (code: string, file: FileFacts): Promise<UploadPolicy> =>
  callApi(attachmentCalls.policy, { query: fileQuery(code, file) }, anonymous);
export const uploadByCode = (code: string, key: string, fileName: string): Promise<CodeUpload> =>
  callApi(attachmentCalls.uploadByCode, { body: { code, key, fileName } }, anonymous);
