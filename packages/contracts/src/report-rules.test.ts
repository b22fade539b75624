import { describe, expect, it } from 'vitest';
import { REPORT_STATUSES } from './exams.js';
import {
  CONTENT_ACTIONS,
  holdsFor,
  isResettableStatus,
  needsReason,
  RELEASING_ACTIONS,
  REPORT_ACTION_ORDER,
  REQUIRED_ACTIONS,
} from './report-rules.js';
import { REPORT_ACTIONS, type ReportAction } from './reports.js';

describe('report rules', () => {
  it('orders every action once: writing, approval, the ways back', () => {
    expect([...REPORT_ACTION_ORDER].sort()).toEqual([...REPORT_ACTIONS].sort());
    expect(REPORT_ACTION_ORDER).toEqual([
      'save',
      'submit',
      'preliminaryIssue',
      'advise',
      'approve',
      'approveAndPrint',
      'reject',
      'cancelSubmit',
      'recall',
    ]);
  });

  it('sends content with the writing and approving actions, never with the ways back', () => {
    const sends = REPORT_ACTIONS.filter((a) => CONTENT_ACTIONS.has(a));
    expect(sends.sort()).toEqual(['advise', 'approve', 'approveAndPrint', 'preliminaryIssue', 'save', 'submit']);
    for (const a of RELEASING_ACTIONS) expect(CONTENT_ACTIONS.has(a)).toBe(true);
    expect([...RELEASING_ACTIONS].sort()).toEqual(['approve', 'approveAndPrint', 'preliminaryIssue', 'submit']);
  });

  it('asks a reason for reject and recall only', () => {
    const needing = REPORT_ACTIONS.filter((a: ReportAction) => needsReason(a));
    expect(needing.sort()).toEqual(['recall', 'reject']);
    for (const a of needing) expect(CONTENT_ACTIONS.has(a)).toBe(false);
  });

  it('names the organization actions of every transition but cancelSubmit', () => {
    expect(REPORT_ACTIONS.filter((a) => REQUIRED_ACTIONS[a] === undefined)).toEqual(['cancelSubmit']);
  });

  it('resets a draft in none, locked or partial only', () => {
    expect(REPORT_STATUSES.filter((s) => isResettableStatus(s))).toEqual(['none', 'locked', 'partial']);
  });
});

describe('holdsFor', () => {
  it('needs one full set of the listed actions', () => {
    expect(holdsFor('approveAndPrint', new Set(['report_print']))).toBe(false);
    expect(holdsFor('save', new Set(['report_advice']))).toBe(true);
    expect(holdsFor('cancelSubmit', new Set())).toBe(true);
  });
});
