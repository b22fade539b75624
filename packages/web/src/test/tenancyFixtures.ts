import {
  ACTION_CATALOGUE,
  GROUP_ACCESS_LEVELS,
  type Group,
  type GroupMember,
  type Organization,
  type OrgMember,
  type Role,
} from '@yyp/contracts';

/** Test data for the group and organization screens, shaped like the server's answers. */

export function groupOf(overrides: Partial<Group> = {}): Group {
  return {
    id: 'g1',
    displayName: 'Renhe Hospital',
    accessLevel: GROUP_ACCESS_LEVELS.admin,
    allowedAccessLevels: [0, 1, 9, 10],
    settings: { enableRegistry: true, enableStat: true, dobMatchMode: 'shift_off' },
    attributes: {},
    memberCount: 2,
    organizationCount: 1,
    createdAt: '2026-01-05T08:00:00.000Z',
    ...overrides,
  };
}

export function organizationOf(overrides: Partial<Organization> = {}): Organization {
  return {
    id: 'b1',
    groupId: 'g1',
    name: 'Radiology',
    code: 'RH-RAD',
    logo: null,
    isPrivate: false,
    focused: false,
    freeEfilm: false,
    memberCount: 2,
    accessLevel: 'admin',
    settings: {},
    createdAt: '2026-01-05T08:00:00.000Z',
    ...overrides,
  };
}

export function groupMemberOf(overrides: Partial<GroupMember> = {}): GroupMember {
  return {
    accountId: 'u-doctor',
    username: 'doctor',
    name: 'Dr. Li',
    accessLevel: GROUP_ACCESS_LEVELS.member,
    disabled: 0,
    joinedAt: '2026-01-06T08:00:00.000Z',
    ...overrides,
  };
}

export function orgMemberOf(overrides: Partial<OrgMember> = {}): OrgMember {
  return {
    accountId: 'u-doctor',
    username: 'doctor',
    name: 'Dr. Li',
    accessLevel: 'member',
    roleIds: [],
    ...overrides,
  };
}

export function roleOf(overrides: Partial<Role> = {}): Role {
  return { id: 'r1', bucketId: 'b1', name: 'Reporting', actions: ['exam_get'], memberIds: [], ...overrides };
}

/** What GET actions/all answers. */
export function catalogueAnswer() {
  return Object.entries(ACTION_CATALOGUE).map(([category, actions]) => ({ category, actions: [...actions] }));
}
