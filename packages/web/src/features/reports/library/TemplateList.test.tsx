// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor, within, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReportTemplate } from '@yyp/contracts';
import { ConfigProvider } from 'antd';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../../api/sessionStore';
import { AppProviders } from '../../../test/appProviders';
import { installFakeApi, tokenFor } from '../../../test/fakeApi';
import { TemplateList } from './TemplateList';

function template(overrides: Partial<ReportTemplate>): ReportTemplate {
  return {
    id: 't1',
    scope: 'bucket',
    bucketId: 'b1',
    ownerId: null,
    category: 'Chest',
    title: 'Chest CT normal',
    modality: 'CT',
    bodyPart: '',
    findings: 'Lungs clear.',
    conclusion: 'Normal.',
    editable: false,
    createdTime: '2026-01-01T00:00:00Z',
    updatedTime: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

function renderList(actions: string[], templates: ReportTemplate[]) {
  const api = installFakeApi({
    'GET accounts/me/permissions': () => ({
      status: 200,
      body: [{ bucketId: 'b1', groupId: 'g1', type: 1, accessLevel: 'member', actions }],
    }),
    'GET report-templates': () => ({ status: 200, body: templates }),
    'POST report-templates': (r) => ({
      status: 201,
      body: template({ ...(r.body as object), id: 't-new', editable: true }),
    }),
    'PUT report-templates/t2': (r) => ({ status: 200, body: template({ ...(r.body as object), id: 't2' }) }),
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <AppProviders queryClient={queryClient}>
      <ConfigProvider theme={{ token: { motion: false } }}>
        <TemplateList
          bucketId="b1"
          modality="CT\PT"
          writable
          onApply={() => undefined}
          currentText={() => ({ findings: 'Nodule 5 mm.', conclusion: 'Small nodule.' })}
        />
      </ConfigProvider>
    </AppProviders>,
  );
  return api;
}

describe('template list', () => {
  it('saves the text on screen as a personal template, the organization only with template_upsert', async () => {
    const api = renderList(['report_upsert'], []);
    await userEvent.click(await screen.findByRole('button', { name: /Save as template/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Save as a template' });
    expect(within(dialog).getByRole<HTMLInputElement>('radio', { name: 'The organization' }).disabled).toBe(true);
    expect(within(dialog).getByLabelText<HTMLTextAreaElement>('Findings').value).toBe('Nodule 5 mm.');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Modality').value).toBe('CT');
    await userEvent.type(within(dialog).getByLabelText('Title'), 'Nodule follow-up');
    await userEvent.click(within(dialog).getByRole('button', { name: /OK/ }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'POST')).toBe(true));
    expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({
      scope: 'personal',
      title: 'Nodule follow-up',
      category: '',
      modality: 'CT',
      bodyPart: '',
      findings: 'Nodule 5 mm.',
      conclusion: 'Small nodule.',
    });
  });

  it('saves for the organization with template_upsert, and edits only the editable templates', async () => {
    const api = renderList(
      ['report_upsert', 'template_upsert'],
      [template({ id: 't1' }), template({ id: 't2', scope: 'personal', title: 'Mine', editable: true })],
    );
    await screen.findByText('Mine');
    expect(screen.queryByRole('button', { name: 'Edit template "Chest CT normal"' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Edit template "Mine"' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit template' });
    expect(within(edit).queryByRole('radio')).toBeNull();
    await userEvent.clear(within(edit).getByLabelText('Title'));
    await userEvent.type(within(edit).getByLabelText('Title'), 'Still mine');
    await userEvent.click(within(edit).getByRole('button', { name: /OK/ }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(api.requests.find((r) => r.method === 'PUT')?.body).toMatchObject({ title: 'Still mine' });

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(screen.getByRole('button', { name: /Save as template/ }));
    // (Under test every rc id is "test-id": the open tooltip would name the dialog, so find it by its text.)
    const save = await screen.findByRole('dialog');
    within(save).getByText('Save as a template');
    expect(within(save).getByLabelText<HTMLInputElement>('Title').value).toBe('');
    await userEvent.click(within(save).getByText('The organization'));
    await userEvent.type(within(save).getByLabelText('Title'), 'Department nodule');
    await userEvent.click(within(save).getByRole('button', { name: /OK/ }));
    await waitFor(() => expect(api.requests.some((r) => r.method === 'POST')).toBe(true));
    expect(api.requests.find((r) => r.method === 'POST')?.body).toMatchObject({
      scope: 'bucket',
      bucketId: 'b1',
      title: 'Department nodule',
    });
  });
});
