// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callKey, mediaCalls } from '@yyp/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { examItemOf, openStudiesAs } from '../../test/studiesFixture';

const url = '/yyp/api/v1/exams/study-packages/download?token=t1';
const link = { status: 200, body: { token: 't1', expires: 1, url, count: 1 } };

/** /studies for a doctor holding `actions` in organization b1, listing `exam`. */
function openAs(actions: string[], exam = examItemOf()) {
  return openStudiesAs({ username: 'doctor', name: 'Li', level: 'member', actions }, exam, {
    [callKey(mediaCalls.studyPackages)]: () => link,
  });
}

/** The exam's row, once the list shows it (the first render loads the route chunks: allow it long). */
async function row(): Promise<HTMLElement> {
  let found: HTMLElement | null = null;
  await waitFor(
    () => {
      found = document.querySelector<HTMLElement>('tr[data-row-key="e1"]');
      expect(found).not.toBeNull();
    },
    { timeout: 25_000 },
  );
  return found!;
}

/** Ticks the exam's row. */
async function selectRow(user: ReturnType<typeof userEvent.setup>) {
  await user.click(within(await row()).getByRole('checkbox'));
}

afterEach(() => vi.restoreAllMocks());

describe('exporting selected studies as a DICOM disc', { timeout: 40_000 }, () => {
  it('asks for the link of the selected studies in the interface language and lets the browser download it', async () => {
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    const { api } = openAs(['exam_get', 'study_package']);
    const user = userEvent.setup();
    await selectRow(user);
    const button = await screen.findByTestId('export-media');
    expect(button.textContent).toContain('Export DICOM disc (1)');
    await user.click(button);
    await waitFor(() => expect(clicked).toEqual([url]));
    const asked = api.requests.filter((r) => r.path === mediaCalls.studyPackages.path);
    expect(asked.map((r) => r.body)).toEqual([{ examIds: ['e1'], language: 'en' }]);
    expect(await screen.findByText('The download of 1 studies has started.')).toBeTruthy();
  });

  it('offers nothing to a caller who downloads no studies', async () => {
    // It prints reports: the print bar, drawn from the same permissions, says they are known.
    openAs(['exam_get', 'report_print']);
    await row();
    expect(await screen.findByTestId('print-reports-bar')).toBeTruthy();
    expect(screen.queryByTestId('export-media')).toBeNull();
  });

  it('disables the export when the only selected study is shown masked', async () => {
    const { api } = openAs(['exam_get', 'study_package'], examItemOf({ masked: true }));
    const user = userEvent.setup();
    await selectRow(user);
    const button = await screen.findByTestId('export-media');
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(button.textContent).toContain('(0)');
    expect(api.requests.some((r) => r.path === mediaCalls.studyPackages.path)).toBe(false);
  });
});
