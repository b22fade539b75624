import { describe, expect, it } from 'vitest';
import {
  deskActions,
  EXAM_STATUSES,
  REGISTRY_ACTIONS,
  registryTransition,
  type ExamStatus,
  type RegistryAction,
} from './registry-rules.js';

/**
 * The status machine written out as a table, cell by cell (spec 000 §4 "Exam status"): where each
 * action leads from each status, '-' where it is refused. `opt` is the target when the
 * procedure's imaging is optional; `del` deletes the scheduled exam.
 */
const TABLE: Record<ExamStatus, Record<RegistryAction, string>> = {
  Registered: {
    schedule: 'Scheduled',
    update: 'Registered',
    arrive: 'Arrived|opt:Performed',
    cancelArrival: '-',
    confirm: '-',
    revoke: 'Cancelled',
    delete: 'del',
    match: 'Performed',
    start: 'Arrived',
    perform: 'Performed',
    discontinue: '-',
  },
  Scheduled: {
    schedule: 'Scheduled',
    update: 'Scheduled',
    arrive: 'Arrived|opt:Performed',
    cancelArrival: '-',
    confirm: '-',
    revoke: 'Cancelled',
    delete: 'del',
    match: 'Performed',
    start: 'Arrived',
    perform: 'Performed',
    discontinue: '-',
  },
  Arrived: {
    schedule: '-',
    update: 'Arrived',
    arrive: '-',
    cancelArrival: 'Scheduled',
    confirm: 'Performed',
    revoke: '-',
    delete: '-',
    match: 'Performed',
    start: 'Arrived',
    perform: 'Performed',
    discontinue: 'Arrived',
  },
  Performed: {
    schedule: '-',
    update: 'Performed',
    arrive: '-',
    cancelArrival: 'Scheduled+deletesExam',
    confirm: '-',
    revoke: '-',
    delete: '-',
    match: 'Performed',
    start: '-',
    perform: 'Performed',
    discontinue: '-',
  },
  Cancelled: {
    schedule: '-',
    update: '-',
    arrive: '-',
    cancelArrival: '-',
    confirm: '-',
    revoke: '-',
    delete: 'del',
    match: '-',
    start: '-',
    perform: '-',
    discontinue: '-',
  },
};

/** Who may ask for each action (spec 000 §6 registry_*; exam_delete for what deletes an exam). */
const NEEDS: Record<RegistryAction, string[] | 'modality'> = {
  schedule: ['registry_update'],
  update: ['registry_update'],
  arrive: ['registry_arrive'],
  cancelArrival: ['registry_arrive'],
  confirm: ['registry_arrive'],
  revoke: ['registry_update'],
  delete: ['registry_delete'],
  match: ['registry_arrive'],
  start: 'modality',
  perform: 'modality',
  discontinue: 'modality',
};

const RELEVANT = ['registry_create', 'registry_update', 'registry_arrive', 'registry_delete', 'exam_delete'];
/** Every subset of the relevant actions: 32 people. */
const PEOPLE = Array.from({ length: 1 << RELEVANT.length }, (_, mask) => RELEVANT.filter((_, i) => mask & (1 << i)));

describe('the scheduled exam status machine, every status × action × actor', () => {
  for (const status of EXAM_STATUSES) {
    for (const action of REGISTRY_ACTIONS) {
      const cell = TABLE[status][action];
      it(`${status} --${action}--> ${cell}`, () => {
        for (const imagingOptional of [false, true]) {
          const [plain, optional] = cell.split('|opt:');
          const expectedTo =
            cell === '-'
              ? undefined
              : cell === 'del'
                ? null
                : imagingOptional && optional
                  ? optional
                  : plain!.split('+')[0];
          const deletes = cell.includes('+deletesExam');
          const needs = NEEDS[action];
          const extra = deletes ? ['exam_delete'] : [];
          // The modality.
          const byModality = registryTransition(status, action, { kind: 'modality' }, { imagingOptional });
          if (needs === 'modality' && expectedTo !== undefined) {
            expect(byModality).toEqual({ ok: true, to: expectedTo, deletesExam: false });
          } else if (needs !== 'modality') {
            expect(byModality).toEqual({ ok: false, refused: 'permission' });
          } else {
            expect(byModality).toEqual({ ok: false, refused: 'status' });
          }
          // Every person.
          for (const held of PEOPLE) {
            const got = registryTransition(
              status,
              action,
              { kind: 'person', actions: new Set(held) },
              { imagingOptional },
            );
            if (needs === 'modality') {
              expect(got).toEqual({ ok: false, refused: 'permission' });
            } else if (expectedTo === undefined) {
              expect(got).toEqual({ ok: false, refused: 'status' });
            } else if ([...needs, ...extra].every((a) => held.includes(a))) {
              expect(got).toEqual({ ok: true, to: expectedTo, deletesExam: deletes });
            } else {
              expect(got).toMatchObject({ ok: false, refused: 'permission', needs: [...needs, ...extra] });
            }
          }
        }
      });
    }
  }

  it('Performed is never reverted to Arrived, and nothing leaves Cancelled but delete', () => {
    for (const action of REGISTRY_ACTIONS) {
      for (const actor of [{ kind: 'modality' as const }, { kind: 'person' as const, actions: new Set(RELEVANT) }]) {
        const from = registryTransition('Performed', action, actor);
        if (from.ok) expect(from.to).not.toBe('Arrived');
        const cancelled = registryTransition('Cancelled', action, actor);
        if (cancelled.ok) expect(action).toBe('delete');
      }
    }
  });

  it('offers a registrar and a technician the desk actions their roles hold', () => {
    const registrar = new Set(['registry_create', 'registry_arrive', 'registry_update', 'registry_delete']);
    const technician = new Set(['registry_arrive', 'exam_delete']);
    expect(deskActions('Scheduled', registrar)).toEqual(['schedule', 'update', 'arrive', 'revoke', 'delete', 'match']);
    expect(deskActions('Arrived', registrar)).toEqual(['update', 'cancelArrival', 'confirm', 'match']);
    expect(deskActions('Performed', registrar)).toEqual(['update', 'match']);
    expect(deskActions('Performed', technician)).toEqual(['cancelArrival', 'match']);
    expect(deskActions('Cancelled', registrar)).toEqual(['delete']);
  });
});
