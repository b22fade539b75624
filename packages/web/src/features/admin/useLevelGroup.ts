import type { Group, GroupAccessLevel } from '@yyp/contracts';
import { useSearchParams } from 'react-router';
import { groupsWithLevel } from '../../shared/groups/levels';
import { useMyGroups } from '../../shared/groups/useGroups';

/**
 * The groups where the caller holds `level`, and the one chosen (?groupId=, default the first):
 * security admins and auditors act group by group.
 */
export function useLevelGroup(level: GroupAccessLevel) {
  const myGroups = useMyGroups();
  const [searchParams, setSearchParams] = useSearchParams();
  const groups = groupsWithLevel(myGroups.data, level);
  const requested = searchParams.get('groupId');
  const selected: Group | undefined = groups.find((g) => g.id === requested) ?? groups[0];

  function select(groupId: string) {
    setSearchParams({ groupId }, { replace: true });
  }

  return { query: myGroups, groups, selected, select };
}
