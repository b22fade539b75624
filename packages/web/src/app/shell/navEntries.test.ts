import { describe, expect, it } from 'vitest';
import { groupOf } from '../../test/tenancyFixtures';
import { selectedNavKey, visibleNavEntries } from './navEntries';

const keys = (levels: number[]) =>
  visibleNavEntries(levels.map((accessLevel) => groupOf({ accessLevel }))).map((e) => e.key);

describe('visibleNavEntries', () => {
  it('shows account administration to security admins and logs to auditors only', () => {
    expect(keys([])).toEqual(['studies', 'groups', 'settings']);
    expect(keys([0])).toEqual(['studies', 'groups', 'settings']);
    expect(keys([1])).toEqual(['studies', 'groups', 'settings']);
    expect(keys([9])).toEqual(['studies', 'groups', 'logs', 'settings']);
    expect(keys([10])).toEqual(['studies', 'groups', 'accounts', 'settings']);
    expect(keys([0, 9, 10])).toEqual(['studies', 'groups', 'accounts', 'logs', 'settings']);
  });

  it('hides the level-bound entries while the groups are unknown', () => {
    expect(visibleNavEntries(undefined).map((e) => e.key)).toEqual(['studies', 'groups', 'settings']);
  });

  it('selects the entry of the current path', () => {
    expect(selectedNavKey('/groups/g1/organizations/b1')).toEqual(['groups']);
    expect(selectedNavKey('/logs')).toEqual(['logs']);
    expect(selectedNavKey('/nowhere')).toEqual([]);
  });
});
