import { GROUP_ACCESS_LEVELS, type Group, type GroupAccessLevel, type GroupAccessLevelName } from '@yyp/contracts';

/** Group access levels of spec 000 §6 by number and by name. */
export const GROUP_LEVEL_NAMES = Object.keys(GROUP_ACCESS_LEVELS) as GroupAccessLevelName[];

export function groupLevelName(level: number): GroupAccessLevelName | null {
  return GROUP_LEVEL_NAMES.find((name) => GROUP_ACCESS_LEVELS[name] === level) ?? null;
}

export function isGroupAccessLevel(level: number): level is GroupAccessLevel {
  return groupLevelName(level) !== null;
}

export function isGroupAdmin(group: Pick<Group, 'accessLevel'> | undefined): boolean {
  return group?.accessLevel === GROUP_ACCESS_LEVELS.admin;
}

/** Groups where the caller holds `level`: the auditor's and the security admin's pages pick from these. */
export function groupsWithLevel(groups: readonly Group[] | undefined, level: GroupAccessLevel): Group[] {
  return (groups ?? []).filter((group) => group.accessLevel === level);
}

export const GROUP_LEVEL_COLORS: Record<GroupAccessLevelName, string | undefined> = {
  member: undefined,
  admin: 'blue',
  auditor: 'purple',
  securityAdmin: 'volcano',
};
