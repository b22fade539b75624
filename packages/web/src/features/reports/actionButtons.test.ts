import { REPORT_ACTIONS } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { actionButtons } from './actionButtons';

const actionsOf = (transitions: Parameters<typeof actionButtons>[0]) => actionButtons(transitions).map((b) => b.action);

describe('actionButtons', () => {
  it('shows exactly the transitions, in the bar order', () => {
    expect(actionsOf([])).toEqual([]);
    expect(actionsOf(['submit', 'save', 'advise'])).toEqual(['save', 'submit', 'advise']);
    expect(actionsOf(['reject', 'approveAndPrint', 'approve'])).toEqual(['approve', 'approveAndPrint', 'reject']);
    expect(actionsOf(['recall'])).toEqual(['recall']);
    expect(actionsOf(['cancelSubmit'])).toEqual(['cancelSubmit']);
    expect(actionsOf([...REPORT_ACTIONS]).sort()).toEqual([...REPORT_ACTIONS].sort());
  });

  it('makes approve the primary button when allowed, else submit, else none', () => {
    const primary = (t: Parameters<typeof actionButtons>[0]) =>
      actionButtons(t)
        .filter((b) => b.primary)
        .map((b) => b.action);
    expect(primary(['save', 'submit', 'approve'])).toEqual(['approve']);
    expect(primary(['save', 'submit'])).toEqual(['submit']);
    expect(primary(['recall'])).toEqual([]);
  });

  it('asks for a reason before reject and recall, and for experts before advise', () => {
    const buttons = actionButtons(['reject', 'recall', 'advise', 'save']);
    const by = (a: string) => buttons.find((b) => b.action === a)!;
    expect(by('reject')).toMatchObject({ needsReason: true, danger: true, sendsContent: false });
    expect(by('recall')).toMatchObject({ needsReason: true, danger: true });
    expect(by('advise')).toMatchObject({ needsExperts: true, needsReason: false, sendsContent: true });
    expect(by('save')).toMatchObject({ needsReason: false, sendsContent: true, shortcut: 'Ctrl+S' });
  });

  it('names the keyboard shortcut of save, submit and approve', () => {
    const shortcuts = Object.fromEntries(
      actionButtons(['save', 'submit', 'approve', 'reject']).map((b) => [b.action, b.shortcut]),
    );
    expect(shortcuts).toEqual({ save: 'Ctrl+S', submit: 'Ctrl+Enter', approve: 'Ctrl+Shift+Enter', reject: null });
  });
});

describe('actionButtons gated by the caller held actions', () => {
  const gated = (transitions: Parameters<typeof actionButtons>[0], held: string[]) =>
    actionButtons(transitions, new Set(held)).map((b) => b.action);

  it('keeps only the transitions whose actions the caller holds in the organization', () => {
    // A note-taker (collaborator with report rights) keeps writing, never approving.
    expect(gated(['save', 'submit', 'advise', 'approve', 'reject'], ['report_upsert', 'report_print'])).toEqual([
      'save',
      'submit',
      'advise',
    ]);
    // Approve-and-print needs both actions.
    expect(gated(['approve', 'approveAndPrint'], ['report_approval'])).toEqual(['approve']);
    expect(gated(['approve', 'approveAndPrint'], ['report_approval', 'report_print'])).toEqual([
      'approve',
      'approveAndPrint',
    ]);
    expect(gated(['recall', 'preliminaryIssue'], [])).toEqual([]);
    // Transitions fetched before a role was taken away show nothing of it.
    expect(gated(['save', 'submit'], [])).toEqual([]);
  });

  it('lets the chosen expert save and submit with report_advice, and the writer withdraw after advice', () => {
    expect(gated(['save', 'submit'], ['report_advice'])).toEqual(['save', 'submit']);
    expect(gated(['cancelSubmit'], [])).toEqual(['cancelSubmit']);
  });

  it('leaves the server transitions alone while the permissions are unknown', () => {
    expect(actionButtons(['save', 'approve'], undefined).map((b) => b.action)).toEqual(['save', 'approve']);
  });
});
