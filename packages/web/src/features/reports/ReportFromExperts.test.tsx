// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import type { CriticalValueList, ReportImage, ReportSampleGraph } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import type { FakeHandler } from '../../test/fakeApi';
import { openEditor, reportOf } from '../../test/reportEditorFixture';
import { criticalValueOf } from '../../test/safetyFixtures';

/**
 * The experts' report published back to the clinic (issue 24) is read-only in every part: the
 * editor says so, and its key images, sample graphs and critical values offer no control to
 * change them (the server refuses those writes, 409 ReportNotEditable). The experts' own copy
 * (its source is its own organization) stays editable.
 */
const image: ReportImage = {
  id: 'img1',
  url: '/blob/img1',
  desc: 'Nodule',
  index: 0,
  isPrinted: true,
  point: null,
  contentType: 'image/png',
  size: 10,
  createdTime: '2026-01-01T00:00:00Z',
};
const graph: ReportSampleGraph = {
  id: 'pl1',
  sampleGraphId: 'sg1',
  title: 'Breast',
  url: '/blob/sg1',
  width: 40,
  height: 20,
  index: 0,
  isPrinted: true,
  points: [],
};
const criticals: CriticalValueList = { items: [criticalValueOf()], canReport: false, canFollow: true };

/** A doctor of b1 who writes, approves and manages the sample graphs. */
const handlers = (canReport: boolean): Record<string, FakeHandler> => ({
  'GET accounts/me/permissions': () => ({
    status: 200,
    body: [
      {
        bucketId: 'b1',
        groupId: 'g1',
        type: 1,
        accessLevel: 'member',
        actions: ['exam_get', 'report_upsert', 'report_approval', 'report_print', 'manage_sample_graph'],
      },
    ],
  }),
  'GET reports/e1/images': () => ({ status: 200, body: { images: [image], limit: 6 } }),
  'GET reports/e1/sample-graphs': () => ({ status: 200, body: { graphs: [graph] } }),
  'GET sample-graphs/query': () => ({ status: 200, body: [] }),
  'GET reports/e1/critical-values': () => ({ status: 200, body: { ...criticals, canReport } }),
});

describe('the experts’ report published back', () => {
  it('opens read-only in every part with the read-only message', { timeout: 30_000 }, async () => {
    const published = reportOf({
      status: 'corrected',
      transitions: [],
      sourceBucketId: 'bx',
      originBucketId: 'b1',
    });
    openEditor(published, handlers(false));
    expect((await screen.findByLabelText<HTMLTextAreaElement>('Findings', {}, { timeout: 10_000 })).readOnly).toBe(
      true,
    );
    const banner = await screen.findByTestId('from-experts');
    expect(banner.textContent).toContain('This report comes from the expert organization and is read-only here');
    expect(screen.queryByTestId('not-editable')).toBeNull();
    expect(screen.getByRole('toolbar').querySelectorAll('[data-action]')).toHaveLength(0);

    // Critical values: no new one, marked read-only; the read-back of one recorded before stays.
    const section = await screen.findByTestId('critical-values');
    expect(await within(section).findByTestId('critical-read-only')).toBeTruthy();
    expect(within(section).queryByRole('button', { name: /Report critical value/ })).toBeNull();
    expect(within(section).getByRole('button', { name: 'Record receipt' })).toBeTruthy();

    // Key images and sample graphs: shown, with no control to add, change or remove them.
    fireEvent.click(screen.getByRole('tab', { name: 'Key images' }));
    expect(await screen.findByTestId('snap-read-only')).toBeTruthy();
    expect(await screen.findByTestId('graphs-read-only')).toBeTruthy();
    expect(await screen.findByText('Nodule')).toBeTruthy();
    for (const name of [/Add a file/, /Paste/, /Place a graph/, /Upload a graph/, /Move up/, /Move down/]) {
      expect(screen.queryByRole('button', { name }), String(name)).toBeNull();
    }
    expect(screen.getAllByRole('checkbox').every((box) => (box as HTMLInputElement).disabled)).toBe(true);
  });

  it('leaves the experts’ own copy editable', { timeout: 30_000 }, async () => {
    openEditor(reportOf({ sourceBucketId: 'b1', originBucketId: 'b0' }), handlers(true));
    expect(await screen.findByLabelText<HTMLTextAreaElement>('Findings', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByTestId('from-experts')).toBeNull();
    const section = await screen.findByTestId('critical-values');
    expect(await within(section).findByRole('button', { name: /Report critical value/ })).toBeTruthy();
    expect(within(section).queryByTestId('critical-read-only')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Key images' }));
    expect(await screen.findByRole('button', { name: /Add a file/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Place a graph/ })).toBeTruthy();
    expect(screen.queryByTestId('snap-read-only')).toBeNull();
    expect(screen.queryByTestId('graphs-read-only')).toBeNull();
  });
});
