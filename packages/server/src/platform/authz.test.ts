import {
  ACTION_CATALOGUE,
  ALL_ACTIONS,
  GROUP_ACCESS_LEVELS,
  ORG_ACCESS_LEVELS,
  type GroupAccessLevel,
  type OrgAccessLevel,
} from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_ACTIONS,
  decide,
  decideGroup,
  examMasked,
  GROUP_POWERS,
  privacyOf,
  type BucketAction,
  type CallerAccess,
} from './authz.js';

const G = 'g1';
const B = 'b1';
// exam_bind is granted by the role too: binding stays admin-only whatever a role says.
const roleActions = new Set(['report_upsert', 'exam_get', 'registry_create', 'report_approval', 'exam_bind']);

function caller(groupLevel: GroupAccessLevel | undefined, orgLevel: OrgAccessLevel | undefined): CallerAccess {
  return {
    accountId: 'a1',
    groupLevels: new Map(groupLevel === undefined ? [] : [[G, groupLevel]]),
    memberships: new Map(orgLevel === undefined ? [] : [[B, { orgLevel, roleActions }]]),
  };
}

const groupLevels: (GroupAccessLevel | undefined)[] = [undefined, 0, 1, 9, 10];
const orgLevels: (OrgAccessLevel | undefined)[] = [undefined, ...ORG_ACCESS_LEVELS];
const allBucketActions: BucketAction[] = [...ALL_ACTIONS, ...ADMIN_ACTIONS];
const content = new Set<string>([...ACTION_CATALOGUE.exam, ...ACTION_CATALOGUE.report, ...ACTION_CATALOGUE.attachment]);
const report = new Set<string>(ACTION_CATALOGUE.report);
const adminOnly = new Set<string>(['bucket_manage', 'bucket_members_manage', 'role_manage', 'exam_bind']);

/** The rules of spec 000 §6 written as a table, independent of the implementation's structure. */
function expected(
  gl: GroupAccessLevel | undefined,
  ol: OrgAccessLevel | undefined,
  isPrivate: boolean,
  action: string,
) {
  if (gl === undefined) return 'notFound';
  if (isPrivate && ol === undefined && gl !== 1) return 'notFound';
  if (action === 'bucket_read') return 'allow';
  if (action === 'bucket_delete') return gl === 1 ? 'allow' : 'forbidden';
  if (adminOnly.has(action)) return gl === 1 || ol === 'admin' ? 'allow' : 'forbidden';
  if (ol === undefined) return 'forbidden';
  // Writing a report reads its exam (issue 20 item 2): report_upsert brings exam_get.
  if (ol === 'collaborator') {
    const held = (a: string) => roleActions.has(a) && report.has(a);
    return held(action) || (action === 'exam_get' && held('report_upsert')) ? 'allow' : 'forbidden';
  }
  if (ol === 'contentManager') return content.has(action) || roleActions.has(action) ? 'allow' : 'forbidden';
  return roleActions.has(action) ? 'allow' : 'forbidden';
}

describe('decide over every group level × organization level × privacy × action', () => {
  for (const gl of groupLevels) {
    for (const ol of orgLevels) {
      for (const isPrivate of [false, true]) {
        it(`group ${gl ?? 'none'}, org ${ol ?? 'none'}, ${isPrivate ? 'private' : 'public'}`, () => {
          const c = caller(gl, ol);
          for (const action of allBucketActions) {
            expect(decide(c, action, { id: B, groupId: G, isPrivate }), action).toBe(
              expected(gl, ol, isPrivate, action),
            );
          }
        });
      }
    }
  }

  it('answers notFound for a bucket of another group, whatever the caller holds in its own', () => {
    const c = caller(1, 'admin');
    for (const action of allBucketActions) {
      expect(decide(c, action, { id: 'b2', groupId: 'g2', isPrivate: false })).toBe('notFound');
    }
  });

  it('answers notFound for a bucket that does not exist', () => {
    expect(decide(caller(1, 'admin'), 'exam_get', undefined)).toBe('notFound');
  });

  it('lets a role that writes reports read the exam, and nothing more of it', () => {
    for (const orgLevel of ['member', 'collaborator'] as const) {
      const c: CallerAccess = {
        accountId: 'a1',
        groupLevels: new Map([[G, 0]]),
        memberships: new Map([[B, { orgLevel, roleActions: new Set(['report_upsert', 'report_print']) }]]),
      };
      const bucket = { id: B, groupId: G, isPrivate: false };
      expect(decide(c, 'exam_get', bucket), orgLevel).toBe('allow');
      for (const action of ACTION_CATALOGUE.exam.filter((a) => a !== 'exam_get')) {
        expect(decide(c, action, bucket), `${orgLevel} ${action}`).toBe('forbidden');
      }
    }
    const reader: CallerAccess = {
      accountId: 'a1',
      groupLevels: new Map([[G, 0]]),
      memberships: new Map([[B, { orgLevel: 'member', roleActions: new Set(['report_approval']) }]]),
    };
    expect(decide(reader, 'exam_get', { id: B, groupId: G, isPrivate: false })).toBe('forbidden');
  });

  it('does not carry a role in one bucket over to another bucket of the same group', () => {
    const c = caller(0, 'member');
    expect(decide(c, 'report_upsert', { id: B, groupId: G, isPrivate: false })).toBe('allow');
    expect(decide(c, 'report_upsert', { id: 'b3', groupId: G, isPrivate: false })).toBe('forbidden');
  });
});

describe('group powers keep admin, auditor and security admin apart', () => {
  const table: Record<string, string[]> = {
    none: [],
    [GROUP_ACCESS_LEVELS.member]: ['group_read'],
    [GROUP_ACCESS_LEVELS.admin]: ['group_read', 'group_manage'],
    [GROUP_ACCESS_LEVELS.auditor]: ['group_read', 'audit_read'],
    [GROUP_ACCESS_LEVELS.securityAdmin]: ['group_read', 'account_status'],
  };
  for (const gl of groupLevels) {
    it(`level ${gl ?? 'none'}`, () => {
      const c = caller(gl, undefined);
      for (const power of GROUP_POWERS) {
        const want = gl === undefined ? 'notFound' : table[String(gl)]!.includes(power) ? 'allow' : 'forbidden';
        expect(decideGroup(c, power, G), power).toBe(want);
      }
      expect(decideGroup(c, 'group_read', 'other-group')).toBe('notFound');
    });
  }
});

describe('privacyOf and examMasked read the group flag and view_privacy', () => {
  const member = (actions: string[]): CallerAccess => ({
    accountId: 'a1',
    groupLevels: new Map([[G, 0]]),
    memberships: new Map([[B, { orgLevel: 'member', roleActions: new Set(actions) }]]),
  });
  const off = { id: B, groupId: G, isPrivate: false, enablePrivacy: false };
  const on = { ...off, enablePrivacy: true };
  it('shows a privacy-off organization to a reader without view_privacy, except a confidential exam', () => {
    expect(privacyOf(member(['exam_get']), off)).toEqual({ groupPrivacy: false, viewPrivacy: false });
    expect(examMasked(member(['exam_get']), off, { isPrivacy: false })).toBe(false);
    expect(examMasked(member(['exam_get']), off, { isPrivacy: true })).toBe(true);
  });
  it('masks a privacy-on organization without view_privacy, and facts without the flag', () => {
    expect(examMasked(member(['exam_get']), on, { isPrivacy: false })).toBe(true);
    expect(examMasked(member(['exam_get']), { id: B, groupId: G, isPrivate: false }, { isPrivacy: false })).toBe(true);
    expect(examMasked(member(['exam_get', 'view_privacy']), on, { isPrivacy: true })).toBe(false);
  });
  it('never lets view_privacy through a collaborator (an exam right, not a report right)', () => {
    const c: CallerAccess = {
      accountId: 'a1',
      groupLevels: new Map([[G, 0]]),
      memberships: new Map([
        [B, { orgLevel: 'collaborator', roleActions: new Set(['report_upsert', 'view_privacy']) }],
      ]),
    };
    expect(privacyOf(c, on).viewPrivacy).toBe(false);
  });
});
