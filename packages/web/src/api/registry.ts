import type {
  Device,
  Procedure,
  RegistrationCreate,
  RegistrationUpdate,
  Registration,
  RegistryBucket,
  RegistryPage,
  RegistryQuery,
  ScheduledExam,
} from '@yyp/contracts';
import { patientCalls, procedureCalls, registryCalls, scheduledExamCalls } from '@yyp/contracts';
import { callApi } from './call';

/** The front desk (spec 000 §2 /registry; issue 22): registrations, their scheduled exams and the group's patients. */

export function fetchRegistryBuckets(signal?: AbortSignal): Promise<RegistryBucket[]> {
  return callApi(registryCalls.buckets, {}, { signal });
}

export function queryRegistry(bucketId: string, body: RegistryQuery, signal?: AbortSignal): Promise<RegistryPage> {
  return callApi(registryCalls.query, { params: { bucketId }, body }, { signal });
}

export function createRegistration(body: RegistrationCreate): Promise<Registration> {
  return callApi(registryCalls.create, { body });
}

export function updateRegistration(body: RegistrationUpdate): Promise<Registration> {
  return callApi(registryCalls.update, { body });
}

export function arriveScheduled(ids: string[]): Promise<ScheduledExam[]> {
  return callApi(registryCalls.arrive, { body: { ids } });
}

export function confirmScheduled(ids: string[]): Promise<ScheduledExam[]> {
  return callApi(registryCalls.confirm, { body: { ids } });
}

export function cancelArrival(id: string): Promise<ScheduledExam> {
  return callApi(registryCalls.status, { body: { id, action: 'cancelArrival' } });
}

export function revokeScheduled(id: string, reason: string): Promise<ScheduledExam> {
  return callApi(scheduledExamCalls.revoke, { params: { id }, body: { reason } });
}

export function deleteScheduled(id: string): Promise<void> {
  return callApi(scheduledExamCalls.remove, { params: { id } }) as Promise<void>;
}

/** The registration a pass code (label, referral form) names; the edit form starts from it. */
export function fetchRegistrationByPassCode(code: string, signal?: AbortSignal): Promise<Registration> {
  return callApi(registryCalls.passCode, { params: { code } }, { signal });
}

export function queryPatients(bucketId: string, q: string, signal?: AbortSignal) {
  return callApi(patientCalls.query, { body: { bucketId, q, limit: 10 } }, { signal });
}

export function fetchProcedures(bucketId: string, signal?: AbortSignal): Promise<Procedure[]> {
  return callApi(procedureCalls.procedures.list, { params: { bucketId } }, { signal });
}

export function fetchDevices(bucketId: string, signal?: AbortSignal): Promise<Device[]> {
  return callApi(procedureCalls.devices.list, { params: { bucketId } }, { signal });
}
