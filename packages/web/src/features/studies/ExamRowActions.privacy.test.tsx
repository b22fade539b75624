// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ExamItem } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { examItemOf, openStudiesAs } from '../../test/studiesFixture';

const plain = examItemOf();

/** /studies listing `exam` for a caller holding exam_get and study_package in its organization. */
function openStudies(exam: ExamItem) {
  return openStudiesAs(
    { username: 'teledoctor', name: 'Chen', level: 'member', actions: ['exam_get', 'study_package'] },
    exam,
  );
}

// Issue 20 item 1: a stored file carries the private fields unmasked (the server answers 403).
describe('the study package download and the privacy rule', { timeout: 40_000 }, () => {
  it('is offered on a row shown unmasked', async () => {
    openStudies(plain);
    await userEvent.setup().click(await screen.findByTestId('more-e1', {}, { timeout: 25_000 }));
    expect(await screen.findByText('Download')).toBeTruthy();
  });

  it('is not offered on a row shown masked, the only action of that menu: no menu', async () => {
    const { api } = openStudies({ ...plain, masked: true, patientName: 'Z*', patientId: 'P*' });
    expect(await screen.findByTestId('report-e1', {}, { timeout: 25_000 })).toBeTruthy();
    await waitFor(() => expect(api.requests.some((r) => r.path === 'accounts/me/permissions')).toBe(true));
    expect(screen.queryByTestId('more-e1')).toBeNull();
  });
});
