import { REPORT_ACTIONS, REPORT_STATUSES, type ReportAction, type ReportStatus } from '@yyp/contracts';
import { isEditable, isPendingApproval, EMPTY_REPORT_CONTENT } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import {
  allowedActions,
  applyAction,
  canReset,
  isProblem,
  visibleStatus,
  type ActorFacts,
  type ReportFacts,
} from './report-machine.js';

const WRITER = 'writer';
const EXPERT = 'expert';
const actors = {
  /** the report's creator, a reporting doctor (报告医生) */
  writer: { id: WRITER, actions: new Set(['report_upsert', 'report_trace', 'report_print']) },
  /** another reporting doctor */
  colleague: { id: 'colleague', actions: new Set(['report_upsert']) },
  /** an approving doctor (审核医生) who did not write it */
  approver: {
    id: 'approver',
    actions: new Set([
      'report_upsert',
      'report_approval',
      'report_print',
      'report_recall',
      'report_advice',
      'report_preliminary',
    ]),
  },
  /** an approver without print rights */
  approverNoPrint: { id: 'approver2', actions: new Set(['report_approval']) },
  /** the chosen advice expert */
  expert: { id: EXPERT, actions: new Set(['report_advice', 'report_upsert']) },
  /** chosen as expert but without report_advice */
  expertNoRight: { id: 'expert-no-right', actions: new Set(['report_upsert']) },
  /** a technician: no report action */
  tech: { id: 'tech', actions: new Set(['exam_get', 'exam_upload']) },
} satisfies Record<string, ActorFacts>;
type Who = keyof typeof actors;

/** The creator-writer also approves (a senior writing and approving their own). */
const seniorWriter: ActorFacts = { id: WRITER, actions: actors.approver.actions };

const report = (status: ReportStatus, over: Partial<ReportFacts> = {}): ReportFacts => ({
  status,
  creatorId: status === 'none' ? null : WRITER,
  lockedBy: null,
  adviceExpertIds: [EXPERT, 'expert-no-right'],
  ...over,
});

/**
 * The expected transitions, written out per status and caller (spec 000 §4), with no lock held
 * by anyone else. Unlisted callers may do nothing.
 */
const expected: Record<ReportStatus, Partial<Record<Who, ReportAction[]>>> = {
  none: {
    writer: ['save', 'submit', 'advise'],
    colleague: ['save', 'submit', 'advise'],
    approver: ['save', 'submit', 'preliminaryIssue', 'advise', 'approve', 'approveAndPrint'],
    approverNoPrint: ['approve'],
    expert: ['save', 'submit', 'advise'],
    expertNoRight: ['save', 'submit', 'advise'],
  },
  locked: { writer: ['save', 'submit', 'advise'] },
  partial: { writer: ['save', 'submit', 'advise'] },
  hold: { writer: ['save', 'submit', 'advise'] },
  cancelled: { writer: ['save', 'submit', 'advise'] },
  final: {
    writer: ['cancelSubmit'],
    approver: ['approve', 'approveAndPrint', 'reject'],
    approverNoPrint: ['approve', 'reject'],
  },
  preliminary: {
    writer: ['save', 'submit'],
    approver: ['approve', 'approveAndPrint', 'reject'],
    approverNoPrint: ['approve', 'reject'],
  },
  advised: { writer: ['cancelSubmit'], expert: ['save', 'submit'] },
  corrected: { approver: ['recall'] },
  printed: { approver: ['recall'] },
};

describe('report transitions', () => {
  for (const status of REPORT_STATUSES) {
    for (const who of Object.keys(actors) as Who[]) {
      const want = expected[status][who] ?? [];
      it(`${status} × ${who}: ${want.join(', ') || 'nothing'}`, () => {
        const r = report(status);
        // Not locked, locked by the caller: the same. Locked by anyone else: nothing.
        expect(allowedActions(r, actors[who])).toEqual(want);
        expect(allowedActions({ ...r, lockedBy: actors[who].id }, actors[who])).toEqual(want);
        expect(allowedActions({ ...r, lockedBy: 'someone-else' }, actors[who])).toEqual([]);
        // A view-only opening allows nothing.
        expect(allowedActions(r, { ...actors[who], viewOnly: true })).toEqual([]);
      });
    }
  }

  it('lets a senior who wrote the report approve it but never reject it', () => {
    expect(allowedActions(report('partial'), seniorWriter)).toEqual([
      'save',
      'submit',
      'preliminaryIssue',
      'advise',
      'approve',
      'approveAndPrint',
    ]);
    expect(allowedActions(report('final'), seniorWriter)).toEqual(['approve', 'approveAndPrint', 'cancelSubmit']);
    expect(allowedActions(report('preliminary'), seniorWriter)).toEqual([
      'save',
      'submit',
      'approve',
      'approveAndPrint',
    ]);
  });

  it('lets an expert with approval rights approve an advised report', () => {
    const approvingExpert: ActorFacts = { id: EXPERT, actions: actors.approver.actions };
    expect(allowedActions(report('advised'), approvingExpert)).toEqual([
      'save',
      'submit',
      'approve',
      'approveAndPrint',
    ]);
  });

  it('derives editable and pending approval from the transitions alone', () => {
    for (const status of REPORT_STATUSES) {
      for (const who of Object.keys(actors) as Who[]) {
        const t = allowedActions(report(status), actors[who]);
        expect(isEditable(t)).toBe(t.includes('save') || t.includes('submit') || t.includes('approve'));
        expect(isPendingApproval(t)).toBe(t.includes('approve') || t.includes('reject'));
      }
    }
    expect(isPendingApproval(allowedActions(report('final'), actors.approver))).toBe(true);
    expect(isEditable(allowedActions(report('final'), actors.writer))).toBe(false);
  });
});

const text = { ...EMPTY_REPORT_CONTENT, findings: '双肺纹理清晰。', conclusion: '胸部CT平扫未见异常。' };

describe('applying an action', () => {
  it('refuses every action that is not in the transitions', () => {
    for (const status of REPORT_STATUSES) {
      for (const who of Object.keys(actors) as Who[]) {
        const allowed = allowedActions(report(status), actors[who]);
        for (const action of REPORT_ACTIONS) {
          const out = applyAction(report(status), actors[who], action, {
            content: text,
            reason: 'why',
            expertIds: [EXPERT],
          });
          expect(isProblem(out) && out.kind === 'notAllowed').toBe(!allowed.includes(action));
        }
      }
    }
  });

  it('moves a report through write, submit, reject, fix, submit, approve, recall, approve', () => {
    let r = report('none');
    const step = (actor: ActorFacts, action: ReportAction, reason?: string) => {
      const out = applyAction(r, actor, action, { content: text, reason });
      if (isProblem(out)) throw new Error(`${action}: ${out.kind}`);
      r = { ...r, status: out.status, creatorId: out.creatorId };
      return out;
    };
    expect(step(actors.writer, 'save')).toMatchObject({ status: 'partial', creatorId: WRITER, releaseLock: false });
    expect(step(actors.writer, 'submit')).toMatchObject({ status: 'final', releaseLock: true });
    expect(step(actors.approver, 'reject', '结论不完整')).toMatchObject({ status: 'hold', rejectReason: '结论不完整' });
    expect(step(actors.writer, 'save').status).toBe('hold');
    expect(step(actors.writer, 'submit')).toMatchObject({ status: 'final', rejectReason: '' });
    expect(step(actors.approver, 'approve')).toMatchObject({
      status: 'corrected',
      approverId: 'approver',
      issuerId: 'approver',
      stamp: ['approvedAt'],
    });
    expect(step(actors.approver, 'recall', '补充病史')).toMatchObject({
      status: 'cancelled',
      recallReason: '补充病史',
    });
    expect(step(actors.writer, 'submit').status).toBe('final');
    expect(step(actors.approver, 'approveAndPrint')).toMatchObject({
      status: 'printed',
      stamp: ['approvedAt', 'printApprovedAt'],
    });
  });

  it('needs a reason to reject or recall', () => {
    for (const reason of [undefined, '', '   ']) {
      expect(applyAction(report('final'), actors.approver, 'reject', { content: text, reason })).toEqual({
        kind: 'reasonRequired',
      });
      expect(applyAction(report('corrected'), actors.approver, 'recall', { content: text, reason })).toEqual({
        kind: 'reasonRequired',
      });
    }
  });

  it('needs findings or a conclusion to submit, approve or issue early, but not to save', () => {
    const blank = { ...EMPTY_REPORT_CONTENT, findings: '  ', conclusion: '\n' };
    for (const action of ['submit', 'approve', 'approveAndPrint', 'preliminaryIssue'] as const) {
      expect(applyAction(report('partial'), seniorWriter, action, { content: blank })).toEqual({
        kind: 'textRequired',
      });
    }
    expect(isProblem(applyAction(report('partial'), seniorWriter, 'save', { content: blank }))).toBe(false);
    const conclusionOnly = { ...blank, conclusion: '未见异常' };
    expect(applyAction(report('partial'), actors.writer, 'submit', { content: conclusionOnly })).toMatchObject({
      status: 'final',
    });
  });

  it('needs experts to ask for advice, and then only they edit', () => {
    expect(applyAction(report('partial'), actors.writer, 'advise', { content: text, expertIds: [] })).toEqual({
      kind: 'expertsRequired',
    });
    const out = applyAction(report('partial'), actors.writer, 'advise', {
      content: text,
      expertIds: [EXPERT, EXPERT],
    });
    expect(out).toMatchObject({ status: 'advised', adviceExpertIds: [EXPERT] });
    const advised = report('advised', { adviceExpertIds: [EXPERT] });
    expect(allowedActions(advised, actors.writer)).toEqual(['cancelSubmit']);
    expect(allowedActions(advised, actors.expert)).toEqual(['save', 'submit']);
    expect(applyAction(advised, actors.expert, 'save', { content: text })).toMatchObject({
      status: 'advised',
      creatorId: WRITER,
    });
    expect(applyAction(advised, actors.writer, 'cancelSubmit', { content: text })).toMatchObject({
      status: 'partial',
      adviceExpertIds: [],
    });
  });

  it('makes the first writer of a new report its creator, and leaves the creator alone after', () => {
    expect(applyAction(report('none'), actors.colleague, 'save', { content: text })).toMatchObject({
      creatorId: 'colleague',
    });
    expect(applyAction(report('final'), actors.approver, 'approve', { content: text })).toMatchObject({
      creatorId: WRITER,
    });
  });

  it('issues a preliminary report early and lets it be approved later', () => {
    const out = applyAction(report('partial'), seniorWriter, 'preliminaryIssue', { content: text });
    expect(out).toMatchObject({ status: 'preliminary', issuerId: WRITER });
    expect(applyAction(report('preliminary'), actors.approver, 'approve', { content: text })).toMatchObject({
      status: 'corrected',
    });
  });
});

describe('reset and lock display', () => {
  it('resets only a never-submitted draft, by its writer', () => {
    for (const status of REPORT_STATUSES) {
      const draft = ['none', 'locked', 'partial'].includes(status);
      expect(canReset(report(status), actors.writer)).toBe(draft);
      expect(canReset(report(status), actors.colleague)).toBe(status === 'none');
      expect(canReset(report(status, { lockedBy: 'someone-else' }), actors.writer)).toBe(false);
    }
  });

  it('shows a lapsed bare lock as no report', () => {
    expect(visibleStatus('locked', false)).toBe('none');
    expect(visibleStatus('locked', true)).toBe('locked');
    for (const s of REPORT_STATUSES.filter((x) => x !== 'locked')) {
      expect(visibleStatus(s, false)).toBe(s);
    }
  });
});
