import { describe, expect, it } from 'vitest';
import { groupOf } from '../../test/tenancyFixtures';
import { selectedNavKey, visibleNavEntries } from './navEntries';

const keys = (levels: number[]) =>
  visibleNavEntries(levels.map((accessLevel) => groupOf({ accessLevel }))).map((e) => e.key);

describe('visibleNavEntries', () => {
  it('shows account administration to security admins and logs to auditors only', () => {
    expect(keys([])).toEqual(['studies', 'groups', 'settings', 'learning', 'help']);
    expect(keys([0])).toEqual(['studies', 'groups', 'settings', 'learning', 'help']);
    expect(keys([1])).toEqual(['studies', 'groups', 'settings', 'learning', 'help']);
    expect(keys([9])).toEqual(['studies', 'groups', 'logs', 'settings', 'learning', 'help']);
    expect(keys([10])).toEqual(['studies', 'groups', 'accounts', 'settings', 'learning', 'help']);
    expect(keys([0, 9, 10])).toEqual(['studies', 'groups', 'accounts', 'logs', 'settings', 'learning', 'help']);
  });

  it('shows the critical-value and quality screens to holders of their actions in some organization', () => {
    const held = (actions: string[]) => (action: string) => actions.includes(action);
    const shown = (actions: string[]) => visibleNavEntries([], held(actions)).map((e) => e.key);
    expect(shown([])).toEqual(['studies', 'groups', 'settings', 'learning', 'help']);
    expect(shown(['registry_create'])).toEqual(['studies', 'criticalValues', 'groups', 'settings', 'learning', 'help']);
    expect(shown(['exam_get', 'quality_upsert'])).toEqual([
      'studies',
      'criticalValues',
      'quality',
      'groups',
      'settings',
      'learning',
      'help',
    ]);
    expect(shown(['quality_stats'])).toEqual(['studies', 'quality', 'groups', 'settings', 'learning', 'help']);
    expect(selectedNavKey('/critical-values')).toEqual(['criticalValues']);
  });

  it('shows report publishing only to holders of order_report_publish', () => {
    const shown = (actions: string[]) => visibleNavEntries([], (a) => actions.includes(a)).map((e) => e.key);
    expect(shown(['report_approval', 'report_print'])).not.toContain('reportPublish');
    expect(shown(['order_report_publish'])).toEqual([
      'studies',
      'reportPublish',
      'groups',
      'settings',
      'learning',
      'help',
    ]);
    expect(selectedNavKey('/report-publish/detail')).toEqual(['reportPublish']);
  });

  it('shows the refused DICOM associations and the platform administration to platform admins only', () => {
    expect(visibleNavEntries([], undefined, true).map((e) => e.key)).toEqual([
      'studies',
      'groups',
      'dicomRefusals',
      'platformAdmin',
      'settings',
      'learning',
      'help',
    ]);
    expect(keys([9])).not.toContain('dicomRefusals');
    expect(keys([9, 10, 1])).not.toContain('platformAdmin');
    expect(selectedNavKey('/dicom-refusals')).toEqual(['dicomRefusals']);
    expect(selectedNavKey('/settings/admin')).toEqual(['platformAdmin']);
    expect(selectedNavKey('/settings/mobile')).toEqual(['settings']);
    expect(selectedNavKey('/learning/video-1')).toEqual(['learning']);
    expect(selectedNavKey('/help')).toEqual(['help']);
  });

  it('shows the registry to registrars only (GET registry-buckets lists an organization)', () => {
    expect(visibleNavEntries([], undefined, false, true).map((e) => e.key)).toEqual([
      'studies',
      'registry',
      'groups',
      'settings',
      'learning',
      'help',
    ]);
    expect(visibleNavEntries([], undefined, false, false).map((e) => e.key)).not.toContain('registry');
    expect(selectedNavKey('/registry')).toEqual(['registry']);
  });

  it('shows calling to callers only (an organization with calling on where they call or manage the queue)', () => {
    expect(visibleNavEntries([], undefined, false, false, true).map((e) => e.key)).toEqual([
      'studies',
      'calling',
      'groups',
      'settings',
      'learning',
      'help',
    ]);
    expect(visibleNavEntries([], () => true, false, true, true).map((e) => e.key)).toEqual([
      'studies',
      'registry',
      'criticalValues',
      'quality',
      'calling',
      'reportPublish',
      'orders',
      'groups',
      'settings',
      'learning',
      'help',
    ]);
    expect(visibleNavEntries([], undefined, false, true, false).map((e) => e.key)).not.toContain('calling');
    expect(selectedNavKey('/calling')).toEqual(['calling']);
    expect(selectedNavKey('/calling/b1/screen-show')).toEqual(['calling']);
  });

  it('shows consultations where a group of the caller has them on', () => {
    const shown = (flags: boolean[]) =>
      visibleNavEntries(flags.map((on) => groupOf({ settings: { enableConsultation: on } }))).map((e) => e.key);
    expect(shown([false])).not.toContain('consultations');
    expect(shown([false, true])).toEqual(['studies', 'consultations', 'groups', 'settings', 'learning', 'help']);
    expect(selectedNavKey('/consultations/c1/related/l1')).toEqual(['consultations']);
  });

  it('shows statistics when buckets/allowed-statistics lists an organization', () => {
    expect(visibleNavEntries([], undefined, false, false, false, true).map((e) => e.key)).toEqual([
      'studies',
      'statistics',
      'groups',
      'settings',
      'learning',
      'help',
    ]);
    expect(visibleNavEntries([], undefined, false, false, false, false).map((e) => e.key)).not.toContain('statistics');
    expect(selectedNavKey('/group-statistics')).toEqual(['statistics']);
  });

  it('hides the level-bound entries while the groups are unknown', () => {
    expect(visibleNavEntries(undefined).map((e) => e.key)).toEqual([
      'studies',
      'groups',
      'settings',
      'learning',
      'help',
    ]);
  });

  it('selects the entry of the current path', () => {
    expect(selectedNavKey('/groups/g1/organizations/b1')).toEqual(['groups']);
    expect(selectedNavKey('/logs')).toEqual(['logs']);
    expect(selectedNavKey('/nowhere')).toEqual([]);
  });
});
