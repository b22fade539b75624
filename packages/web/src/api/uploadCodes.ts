import type {
  AttachmentKind,
  CodeUpload,
  ExamAttachmentList,
  ServiceAttachment,
  Signature,
  UploadCode,
  UploadPolicy,
} from '@yyp/contracts';
import { apiRequest } from './client';

/**
 * Calls of upload codes (spec 001 §7 "Signature" and "Service attachments"). The code pages run
 * without an account: their calls are anonymous and the code in the query is the only credential.
 */
type FileFacts = Pick<File, 'type' | 'size' | 'name'>;

const fileQuery = (file: FileFacts) => ({ contentType: file.type, size: file.size, fileName: file.name });

export const fetchMySignature = () => apiRequest<Signature>('signature/mine');
export const setMySignature = (key: string) =>
  apiRequest<Signature>('signature/mine', { method: 'PUT', body: { url: key } });
export const removeMySignature = () => apiRequest<Signature>('signature/mine', { method: 'DELETE' });
export const issueSignatureCode = () => apiRequest<UploadCode>('signature/code', { method: 'POST' });

export const fetchSignaturePolicy = (code: string, file: FileFacts) =>
  apiRequest<UploadPolicy>('signature/policies', { query: { code, ...fileQuery(file) }, anonymous: true });
export const setSignatureByCode = (code: string, key: string) =>
  apiRequest<Signature>('signature', { method: 'POST', body: { code, url: key }, anonymous: true });

export const issueAttachmentCode = (examId: string, kind: AttachmentKind) =>
  apiRequest<UploadCode>(`exams/${encodeURIComponent(examId)}/attachment-code`, { method: 'POST', body: { kind } });
export const fetchExamAttachments = (examId: string) =>
  apiRequest<ExamAttachmentList>(`exams/${encodeURIComponent(examId)}/attachments`);

export const fetchServiceAttachment = (code: string) =>
  apiRequest<ServiceAttachment>('service-attachment', { query: { code }, anonymous: true });
export const fetchAttachmentPolicy = (code: string, file: FileFacts) =>
  apiRequest<UploadPolicy>('service-attachment/policies', { query: { code, ...fileQuery(file) }, anonymous: true });
export const uploadByCode = (code: string, key: string, fileName: string) =>
  apiRequest<CodeUpload>('attachments/upload-by-code', {
    method: 'POST',
    body: { code, key, fileName },
    anonymous: true,
  });
