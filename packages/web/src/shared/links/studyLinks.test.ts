import { describe, expect, it } from 'vitest';
import { drillOfParams, studiesDrillLink, withoutDrill } from './studyLinks';

const drill = {
  filters: [
    { field: 'reportWriterId' as const, operator: 'eq' as const, values: ['u-li'] },
    { field: 'reportApproved' as const, operator: 'range' as const, values: ['2026-10-01', '2026-10-31'] },
    { field: 'bucketId' as const, operator: 'in' as const, values: ['b-1', 'b-2'] },
  ],
  from: '李医生',
};

describe('study list drill links', () => {
  it('round-trips the filters and the origin through the URL', () => {
    const link = studiesDrillLink(drill);
    expect(link.startsWith('/studies?filters=')).toBe(true);
    const params = new URL(link, 'http://x').searchParams;
    expect(drillOfParams(params)).toEqual(drill);
    expect(withoutDrill(params).toString()).toBe('');
  });

  it('ignores a URL without filters, with broken JSON, or with filters the list refuses', () => {
    expect(drillOfParams(new URLSearchParams(''))).toBeNull();
    expect(drillOfParams(new URLSearchParams({ filters: '{oops' }))).toBeNull();
    expect(drillOfParams(new URLSearchParams({ filters: '[]' }))).toBeNull();
    const bad = [{ field: 'reportPositive', operator: 'eq', values: ['yes'] }];
    expect(drillOfParams(new URLSearchParams({ filters: JSON.stringify(bad) }))).toBeNull();
    const unknown = [{ field: 'password', operator: 'eq', values: ['x'] }];
    expect(drillOfParams(new URLSearchParams({ filters: JSON.stringify(unknown) }))).toBeNull();
  });
});
