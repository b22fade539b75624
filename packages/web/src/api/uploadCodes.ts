import {
  attachmentCalls,
  signatureCalls,
  type AttachmentKind,
  type CodeUpload,
  type ExamAttachmentList,
  type ServiceAttachment,
  type Signature,
  type UploadCode,
  type UploadPolicy,
} from '@yyp/contracts';
import { callApi } from './call';

/**
 * Calls of upload codes (spec 001 §7 "Signature" and "Service attachments"; contracts
 * signatureCalls and attachmentCalls). The code pages run without an account: their calls are
 * anonymous and the code in the query is the only credential.
 */
type FileFacts = Pick<File, 'type' | 'size' | 'name'>;

const fileQuery = (code: string, file: FileFacts) => ({
  query: { code, contentType: file.type, size: file.size, fileName: file.name },
});
const anonymous = { anonymous: true } as const;

export const fetchMySignature = (): Promise<Signature> => callApi(signatureCalls.mine, {});
export const setMySignature = (key: string): Promise<Signature> =>
  callApi(signatureCalls.setMine, { body: { url: key } });
export const removeMySignature = (): Promise<Signature> => callApi(signatureCalls.removeMine, {});
export const issueSignatureCode = (): Promise<UploadCode> => callApi(signatureCalls.issueCode, {});

export const fetchSignaturePolicy = (code: string, file: FileFacts): Promise<UploadPolicy> =>
  callApi(signatureCalls.policy, fileQuery(code, file), anonymous);
export const setSignatureByCode = (code: string, key: string): Promise<Signature> =>
  callApi(signatureCalls.byCode, { body: { code, url: key } }, anonymous);

export const issueAttachmentCode = (examId: string, kind: AttachmentKind): Promise<UploadCode> =>
  callApi(attachmentCalls.issueCode, { params: { examId }, body: { kind } });
export const fetchExamAttachments = (examId: string): Promise<ExamAttachmentList> =>
  callApi(attachmentCalls.examList, { params: { examId } });

export const fetchServiceAttachment = (code: string): Promise<ServiceAttachment> =>
  callApi(attachmentCalls.describe, { query: { code } }, anonymous);
export const fetchAttachmentPolicy = (code: string, file: FileFacts): Promise<UploadPolicy> =>
  callApi(attachmentCalls.policy, fileQuery(code, file), anonymous);
export const uploadByCode = (code: string, key: string, fileName: string): Promise<CodeUpload> =>
  callApi(attachmentCalls.uploadByCode, { body: { code, key, fileName } }, anonymous);
