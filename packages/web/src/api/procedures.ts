import {
  XLSX_CONTENT_TYPE,
  callPath,
  forwardingCalls,
  procedureCalls,
  procedureImportCalls,
  type Device,
  type DeviceGroup,
  type ForwardingRule,
  type ForwardingRuleInput,
  type ModalityEntry,
  type DeviceInput,
  type Procedure,
  type ProcedureImportResult,
  type ProcedureInput,
  type deviceGroupInputSchema,
  type modalityEntryInputSchema,
} from '@yyp/contracts';
import { callApi } from './call';
import { apiRequest } from './client';

/**
 * Procedure management, the organization tab (spec 000 §2; issue 22): device groups, devices,
 * procedures, the modality dictionary and the forwarding rules (issue 28) of one organization, and
 * the Excel import.
 */

type Input<S extends { _zod: { input: unknown } }> = S['_zod']['input'];
export type DeviceGroupBody = Input<typeof deviceGroupInputSchema>;
export type DeviceBody = DeviceInput;
export type ProcedureBody = ProcedureInput;
export type ModalityEntryBody = Input<typeof modalityEntryInputSchema>;
export type ForwardingRuleBody = ForwardingRuleInput;

/** The lists of the tab, by the name the web uses for each. */
export type ProcedureListKind = 'deviceGroups' | 'devices' | 'procedures' | 'modalityDictionary' | 'forwardingRules';

interface ListTypes {
  deviceGroups: { row: DeviceGroup; body: DeviceGroupBody };
  devices: { row: Device; body: DeviceBody };
  procedures: { row: Procedure; body: ProcedureBody };
  modalityDictionary: { row: ModalityEntry; body: ModalityEntryBody };
  forwardingRules: { row: ForwardingRule; body: ForwardingRuleBody };
}
export type RowOf<K extends ProcedureListKind> = ListTypes[K]['row'];
export type BodyOf<K extends ProcedureListKind> = ListTypes[K]['body'];

/**
 * The calls of a list: the four of procedure management share one shape (contracts registry-calls
 * `crud`); the forwarding rules (issue 28, contracts forwardingCalls) have the same four.
 */
function listCalls(kind: ProcedureListKind) {
  if (kind === 'forwardingRules') {
    return {
      list: forwardingCalls.listRules,
      create: forwardingCalls.createRule,
      update: forwardingCalls.updateRule,
      remove: forwardingCalls.removeRule,
    };
  }
  return procedureCalls[kind];
}

export function fetchProcedureList<K extends ProcedureListKind>(
  bucketId: string,
  kind: K,
  signal?: AbortSignal,
): Promise<RowOf<K>[]> {
  return callApi(listCalls(kind).list, { params: { bucketId } }, { signal }) as Promise<RowOf<K>[]>;
}

/** Create (`id` null) or change one row of a list. */
export function saveProcedureListRow<K extends ProcedureListKind>(
  bucketId: string,
  kind: K,
  id: string | null,
  body: BodyOf<K>,
): Promise<RowOf<K>> {
  const calls = listCalls(kind);
  // The lists share one shape (listCalls); the body type follows `kind`.
  const answer =
    id === null
      ? callApi(calls.create, { params: { bucketId }, body: body as never })
      : callApi(calls.update, { params: { bucketId, id }, body: body as never });
  return answer as Promise<RowOf<K>>;
}

export async function deleteProcedureListRow(bucketId: string, kind: ProcedureListKind, id: string): Promise<void> {
  await callApi(listCalls(kind).remove, { params: { bucketId, id } });
}

/** Put the organization's procedures in this order (every id, in its new place). */
export function resortProcedures(bucketId: string, ids: string[]): Promise<Procedure[]> {
  return callApi(procedureCalls.resort, { params: { bucketId }, body: { ids } });
}

/**
 * The .xlsx import: the body is the file itself, so it goes through apiRequest at the entry's
 * path. A refused sheet rejects with 400 ValidationError whose details list the bad rows
 * (contracts procedureImportErrorDetailsSchema); nothing is imported then.
 */
export function importProcedures(bucketId: string, file: Blob): Promise<ProcedureImportResult> {
  const body = file.type === XLSX_CONTENT_TYPE ? file : new Blob([file], { type: XLSX_CONTENT_TYPE });
  return apiRequest<ProcedureImportResult>(callPath(procedureImportCalls.importProcedures, { bucketId }), {
    method: procedureImportCalls.importProcedures.method,
    body,
    timeoutMs: 60_000,
  });
}
