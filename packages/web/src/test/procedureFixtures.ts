import {
  callKey,
  procedureCalls,
  procedureImportCalls,
  type Device,
  type DeviceGroup,
  type ModalityEntry,
  type Procedure,
  type ProcedureImportRowError,
} from '@yyp/contracts';
import { errorAnswer, type FakeHandler } from './fakeApi';

/** Test data for the procedure management tab, shaped like the server's answers. */

export function procedureOf(overrides: Partial<Procedure> = {}): Procedure {
  return {
    id: 'p1',
    bucketId: 'b1',
    name: 'Head CT',
    code: 'CT-HEAD',
    enName: 'CT head plain',
    price: 12000,
    scanTech: 'Helical',
    isEnhanced: false,
    bodyPartCount: 1,
    modality: 'CT',
    aeTitle: 'CT_ROOM1',
    deviceGroupIds: ['dg1'],
    steps: ['Position', 'Scan'],
    reportDuringExam: true,
    showLocalVideo: false,
    imagingOptional: false,
    sort: 0,
    ...overrides,
  };
}

export function deviceOf(overrides: Partial<Device> = {}): Device {
  return {
    id: 'd1',
    bucketId: 'b1',
    name: 'CT room 1',
    aeTitle: 'CT_ROOM1',
    host: '10.0.0.21',
    port: 104,
    modality: 'CT',
    room: 'Room 1',
    deviceGroupId: 'dg1',
    charset: 'ISO_IR 192',
    ...overrides,
  };
}

export function deviceGroupOf(overrides: Partial<DeviceGroup> = {}): DeviceGroup {
  return { id: 'dg1', bucketId: 'b1', name: 'CT scanners', sort: 0, ...overrides };
}

export function modalityEntryOf(overrides: Partial<ModalityEntry> = {}): ModalityEntry {
  return { id: 'm1', bucketId: 'b1', modalityCode: 'CT', displayName: 'Computed tomography', ...overrides };
}

/** What the fake server holds for organization b1; the handlers change it as the real one would. */
export interface ProcedureState {
  procedures: Procedure[];
  devices: Device[];
  deviceGroups: DeviceGroup[];
  modalityDictionary: ModalityEntry[];
  /** what POST …/procedures/import answers: a count, or the bad rows (nothing imported) */
  importAnswer?: { created: number; updated: number } | { rows: ProcedureImportRowError[] };
}

export function procedureState(overrides: Partial<ProcedureState> = {}): ProcedureState {
  return {
    procedures: [procedureOf()],
    devices: [deviceOf()],
    deviceGroups: [deviceGroupOf()],
    modalityDictionary: [modalityEntryOf()],
    ...overrides,
  };
}

type Kind = 'procedures' | 'devices' | 'deviceGroups' | 'modalityDictionary';
type RowOfState = ProcedureState[Kind][number];

/** The field a list's rows must not repeat (the server answers 409 Conflict), any case. */
const UNIQUE: Record<Kind, string> = {
  procedures: 'code',
  devices: 'aeTitle',
  deviceGroups: 'name',
  modalityDictionary: 'modalityCode',
};

/**
 * Handlers answering procedure management's calls (contracts procedureCalls, procedureImportCalls)
 * from `state`, keyed by the calls' paths so a changed path fails here too.
 */
export function procedureHandlers(state: ProcedureState): Record<string, FakeHandler> {
  let next = 1;
  const handlers: Record<string, FakeHandler> = {};
  for (const kind of ['procedures', 'devices', 'deviceGroups', 'modalityDictionary'] as const) {
    const calls = procedureCalls[kind];
    const rows = () => state[kind] as RowOfState[];
    const taken = (body: Record<string, unknown>, id: string | null) =>
      rows().some(
        (row) =>
          row.id !== id &&
          String((row as unknown as Record<string, unknown>)[UNIQUE[kind]]).toLowerCase() ===
            String(body[UNIQUE[kind]]).toLowerCase(),
      );
    handlers[callKey(calls.list)] = () => ({ status: 200, body: rows() });
    handlers[callKey(calls.create)] = (request) => {
      const body = request.body as Record<string, unknown>;
      if (taken(body, null)) return errorAnswer(409, 'Conflict');
      const row = { ...defaults(kind), ...body, id: `new${next++}`, bucketId: 'b1' } as RowOfState;
      (state[kind] as RowOfState[]) = [...rows(), row];
      return { status: 201, body: row };
    };
    handlers[callKey(calls.update)] = (request) => {
      const body = request.body as Record<string, unknown>;
      const id = request.params.id ?? '';
      if (taken(body, id)) return errorAnswer(409, 'Conflict');
      const before = rows().find((row) => row.id === id);
      if (!before) return errorAnswer(404, 'NotFound');
      const row = { ...before, ...body } as RowOfState;
      (state[kind] as RowOfState[]) = rows().map((r) => (r.id === id ? row : r));
      return { status: 200, body: row };
    };
    handlers[callKey(calls.remove)] = (request) => {
      (state[kind] as RowOfState[]) = rows().filter((row) => row.id !== request.params.id);
      return { status: 204 };
    };
  }
  handlers[callKey(procedureCalls.resort)] = (request) => {
    const { ids } = request.body as { ids: string[] };
    state.procedures = ids.map((id, sort) => ({ ...state.procedures.find((p) => p.id === id)!, sort }));
    return { status: 200, body: state.procedures };
  };
  handlers[callKey(procedureImportCalls.importProcedures)] = () => {
    const answer = state.importAnswer ?? { created: 0, updated: 0 };
    return 'rows' in answer ? errorAnswer(400, 'ValidationError', answer) : { status: 200, body: answer };
  };
  return handlers;
}

function defaults(kind: Kind): Record<string, unknown> {
  return kind === 'procedures' ? { sort: 99 } : kind === 'deviceGroups' ? { sort: 99 } : {};
}
