import { forwardingCalls, type DicomSend, type DicomSendRequest } from '@yyp/contracts';
import { callApi } from './call';

/**
 * Sending studies to other DICOM nodes (issue 28): the organization's recent sends, and an exam's
 * sends made by hand from the study list (its forwarding rules are a list of procedure management,
 * api/procedures `forwardingRules`).
 */

/** The organization's recent sends, newest first (at most 100). */
export function fetchBucketSends(bucketId: string, signal?: AbortSignal): Promise<DicomSend[]> {
  return callApi(forwardingCalls.listSends, { params: { bucketId } }, { signal });
}

/** The exam's sends, newest first. */
export function fetchExamSends(examId: string, signal?: AbortSignal): Promise<DicomSend[]> {
  return callApi(forwardingCalls.examSends, { params: { examId } }, { signal });
}

/** Send the study (or some of its series) to a device: answered queued, a job sends it. */
export function sendExam(examId: string, body: DicomSendRequest): Promise<DicomSend> {
  return callApi(forwardingCalls.send, { params: { examId }, body });
}

/** Send again what a failed send did not deliver (409 Conflict unless it failed). */
export function retrySend(examId: string, sendId: string): Promise<DicomSend> {
  return callApi(forwardingCalls.retrySend, { params: { examId, sendId } });
}

/** Whether a send is still under way: lists holding one are polled. */
export const sendUnderWay = (send: DicomSend): boolean => send.status === 'queued' || send.status === 'running';
