import { describe, expect, it } from 'vitest';
import { demoGroups, demoRoles } from './demo.js';

/** What README's demo table promises (issue 20 items 1 and 4). */
describe('the demo tenant shows both privacy cases and publishing', () => {
  const has = (key: keyof typeof demoRoles, action: string) =>
    (demoRoles[key].actions as readonly string[]).includes(action);

  it('lets the reporting and approving doctors see whom they read, and the approving one publish', () => {
    expect(has('reporting', 'view_privacy')).toBe(true);
    expect(has('approving', 'view_privacy')).toBe(true);
    expect(has('approving', 'order_report_publish')).toBe(true);
  });

  it('lets the approving doctors order expert and remote reads, refund orders and issue invoices', () => {
    for (const action of [
      'apply_expert_report',
      'apply_remote_report',
      'upload_apply_forms',
      'payment_refund',
      'issue_invoice',
    ]) {
      expect(has('approving', action)).toBe(true);
    }
  });

  it('keeps the hospital’s privacy off and turns the teleradiology group’s on, with a member who sees masks', () => {
    const [hospital, tele] = demoGroups;
    expect(hospital!.settings?.enablePrivacy ?? false).toBe(false);
    expect(tele!.settings?.enablePrivacy).toBe(true);
    // Members holding roles but none with view_privacy: they see masks in the teleradiology group.
    const masked = tele!.organizations.flatMap((o) =>
      o.members.filter((m) => m.roles?.length && m.roles.every((r) => !has(r, 'view_privacy'))),
    );
    expect(masked.map((m) => m.username)).toEqual(['teledoctor']);
  });
});
