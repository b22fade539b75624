import { describe, expect, it } from 'vitest';
import {
  allows,
  deniedAction,
  denialError,
  mayEditTemplate,
  mayReadReportMaterial,
  organizationDenial,
  personalDenial,
  personalRowRefusal,
  SAMPLE_GRAPH_WRITE_ACTION,
  TEMPLATE_WRITE_ACTION,
  type LibraryNeed,
} from './report-library.policy.js';

/**
 * The report-library policy over every set of the actions it looks at × every need × whether the
 * caller sees the organization, and for personal rows × who owns them. The expected answers are
 * written out from the module's rules.
 */

const RELEVANT = [
  'exam_get',
  'report_upsert',
  'report_approval',
  'report_advice',
  'template_upsert',
  'manage_sample_graph',
  'report_trace',
  'bucket_manage',
] as const;
function* subsets<T>(items: readonly T[]): Generator<T[]> {
  for (let mask = 0; mask < 1 << items.length; mask++) yield items.filter((_, i) => mask & (1 << i));
}
const ACTION_SETS = [...subsets(RELEVANT)].map((held) => new Set<string>(held));
const NEEDS: LibraryNeed[] = ['read', TEMPLATE_WRITE_ACTION, SAMPLE_GRAPH_WRITE_ACTION];
const READERS = ['exam_get', 'report_upsert', 'report_approval', 'report_advice', 'template_upsert'];

describe('report-library policy', () => {
  it('reads report material with any of exam_get, report_upsert, report_approval, report_advice, template_upsert', () => {
    expect(ACTION_SETS).toHaveLength(256);
    expect(ACTION_SETS.map(mayReadReportMaterial)).toEqual(ACTION_SETS.map((a) => READERS.some((r) => a.has(r))));
  });

  it('an organization: unseen is notFound, a missing action forbidden, else allowed', () => {
    const got = ACTION_SETS.flatMap((a) => NEEDS.map((need) => [organizationDenial(a, need), allows(a, need)]));
    const want = ACTION_SETS.flatMap((a) =>
      NEEDS.map((need) => {
        const ok = need === 'read' ? READERS.some((r) => a.has(r)) : a.has(need);
        return [ok ? null : 'forbidden', ok];
      }),
    );
    expect(got).toEqual(want);
    for (const need of NEEDS) expect(organizationDenial(null, need)).toBe('notFound');
  });

  it('answers a denial as 404 or 403 naming the action (none for reading), and audits report_material_read', () => {
    expect(denialError('notFound', 'read').toBody()).toEqual({ code: 'NotFound', message: 'Resource not found' });
    expect(denialError('forbidden', 'read').toBody()).toEqual({
      code: 'InsufficientPermissions',
      message: 'Insufficient permissions',
    });
    expect(denialError('forbidden', 'template_upsert').toBody()).toEqual({
      code: 'InsufficientPermissions',
      message: 'Insufficient permissions',
      details: { action: 'template_upsert' },
    });
    expect(deniedAction('read')).toBe('report_material_read');
    expect(deniedAction('personal')).toBe('personal');
    expect(deniedAction('manage_sample_graph')).toBe('manage_sample_graph');
  });

  it('personal material: for members of some organization; a personal row is its owner’s alone (404 otherwise)', () => {
    expect(personalDenial(0)).toBe('forbidden');
    expect(personalDenial(1)).toBeNull();
    expect(personalDenial(5)).toBeNull();
    expect(personalRowRefusal('me', 'me', 'Report template')).toBeNull();
    expect(personalRowRefusal('other', 'me', 'Report template')?.toBody()).toEqual({
      code: 'NotFound',
      message: 'Report template not found',
    });
    expect(personalRowRefusal(null, 'me', 'Knowledge base item')?.toBody()).toEqual({
      code: 'NotFound',
      message: 'Knowledge base item not found',
    });
  });

  it('a template shows editable when personal, or the organization’s with template_upsert', () => {
    for (const a of [null, ...ACTION_SETS]) {
      expect(mayEditTemplate('personal', a)).toBe(true);
      expect(mayEditTemplate('bucket', a)).toBe(a?.has('template_upsert') ?? false);
    }
  });
});
