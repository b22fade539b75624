// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { callKey, VIEWER_TOKEN_HEADER, viewerObjectCalls, type SrDocument, type ViewerObject } from '@yyp/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { AppProviders } from '../../test/appProviders';
import { errorAnswer, installFakeApi } from '../../test/fakeApi';
import { ObjectView } from './ObjectView';

const STUDY = '1.2.3';
const sr: ViewerObject = {
  seriesUid: '1.2.3.90',
  sopUid: '1.2.3.90.1',
  sopClassUid: '1.2.840.10008.5.1.4.1.1.88.33',
  kind: 'sr',
  instanceNumber: 1,
};
const pdf: ViewerObject = {
  ...sr,
  seriesUid: '1.2.3.91',
  sopUid: '1.2.3.91.1',
  sopClassUid: '1.2.840.10008.5.1.4.1.1.104.1',
  kind: 'pdf',
};

const item = (depth: number, relationship: string, valueType: string, concept: string, value = '') => ({
  depth,
  relationship,
  valueType,
  concept,
  value,
  reference: null as SrDocument['items'][number]['reference'],
});

const DOC: SrDocument = {
  sopClassUid: sr.sopClassUid,
  sopUid: sr.sopUid,
  seriesUid: sr.seriesUid,
  title: 'Diagnostic Imaging Report',
  completion: 'COMPLETE',
  verification: 'UNVERIFIED',
  contentDate: '2024-06-02',
  contentTime: '09:30:00',
  manufacturer: 'YYP',
  institution: 'YYP Test Hospital',
  patientName: 'D*e',
  patientId: 'P***1',
  observers: [{ role: 'verifier', name: 'Wang^Fang', organization: 'Radiology', dateTime: '2024-06-02 09:30:00' }],
  items: [
    item(0, '', 'CONTAINER', 'Diagnostic Imaging Report'),
    item(1, 'HAS OBS CONTEXT', 'PNAME', 'Person Observer Name', 'Li^Lei=李^雷'),
    item(1, 'CONTAINS', 'CONTAINER', 'Findings'),
    item(2, 'CONTAINS', 'TEXT', 'Finding', 'Nodule in the right upper lobe'),
    item(2, 'CONTAINS', 'NUM', 'Length', '12.5 mm'),
    item(3, 'HAS PROPERTIES', 'CODE', 'Finding Site', 'Lung'),
    {
      ...item(2, 'CONTAINS', 'IMAGE', 'Image', '1.2.3.1.1'),
      reference: { sopClassUid: '1.2', sopUid: '1.2.3.1.1', frames: [] },
    },
  ],
  truncated: true,
};

function show(object: ViewerObject, onOpenImage = vi.fn()) {
  render(
    <AppProviders queryClient={new QueryClient()}>
      <ObjectView openpath="signed-path" studyUid={STUDY} object={object} onOpenImage={onOpenImage} />
    </AppProviders>,
  );
  return onOpenImage;
}

afterEach(async () => {
  await act(() => setLanguage('en'));
});

describe('the SR panel', () => {
  it('shows the document as readable text: title, flags, observer, nested items with their relationships', async () => {
    const api = installFakeApi({ [callKey(viewerObjectCalls.srDocument)]: () => ({ status: 200, body: DOC }) });
    const onOpenImage = show(sr);
    const panel = await screen.findByTestId('sr-panel');
    expect(api.requests[0]!.headers[VIEWER_TOKEN_HEADER]).toBe('signed-path');
    expect(api.requests[0]!.params).toEqual({ study: STUDY, series: sr.seriesUid, instance: sr.sopUid });
    expect(within(panel).getAllByText('Diagnostic Imaging Report')).toHaveLength(1);
    expect(panel.textContent).toContain('Complete');
    expect(panel.textContent).toContain('Unverified');
    expect(screen.getByTestId('sr-observer').textContent).toBe(
      'Verified by: Wang Fang, Radiology · 2024-06-02 09:30:00',
    );
    expect(panel.textContent).toContain('D*e (P***1)');
    expect(panel.textContent).toContain('part of it is not shown');
    const rows = Array.from(screen.getByTestId('sr-tree').children) as HTMLElement[];
    expect(rows.map((r) => r.textContent)).toEqual([
      'observation contextPerson Observer Name: Li Lei',
      'Findings',
      'Finding: Nodule in the right upper lobe',
      'Length: 12.5 mm',
      'propertyFinding Site: Lung',
      'Image: Show the image',
    ]);
    // Nesting shows as indentation.
    expect(rows.map((r) => r.style.paddingLeft)).toEqual(['0px', '0px', '16px', '16px', '32px', '16px']);
    fireEvent.click(within(rows[5]!).getByRole('button'));
    expect(onOpenImage).toHaveBeenCalledWith('1.2.3.1.1', null);
  });

  it('speaks the reader’s language (chs)', async () => {
    await act(() => setLanguage('chs'));
    installFakeApi({ [callKey(viewerObjectCalls.srDocument)]: () => ({ status: 200, body: DOC }) });
    show(sr);
    const panel = await screen.findByTestId('sr-panel');
    expect(panel.textContent).toContain('已完成');
    expect(panel.textContent).toContain('未审核');
    expect(screen.getByTestId('sr-observer').textContent).toContain('审核人');
    // Names read as Chinese readers write them (the ideographic group).
    expect(screen.getByTestId('sr-tree').textContent).toContain('观察背景Person Observer Name: 李雷');
  });

  it('says why a document cannot be shown', async () => {
    installFakeApi({
      [callKey(viewerObjectCalls.srDocument)]: () => errorAnswer(406, 'NotAcceptable'),
    });
    show(sr);
    await waitFor(() => expect(screen.getByTestId('object-view').querySelector('.viewer-object-error')).not.toBeNull());
    expect(screen.queryByTestId('sr-panel')).toBeNull();
  });
});

describe('the PDF frame', () => {
  it('shows the document inline from its short-lived link', async () => {
    const api = installFakeApi({
      [callKey(viewerObjectCalls.documentLink)]: () => ({
        status: 200,
        body: { url: 'viewer/document?link=abc.def', mimeType: 'application/pdf', expires: 1_900_000_000 },
      }),
    });
    show(pdf);
    const frame = (await screen.findByTestId('pdf-frame')) as HTMLIFrameElement;
    expect(frame.getAttribute('src')).toBe('/yyp/api/v1/viewer/document?link=abc.def');
    expect(api.requests[0]!.method).toBe('POST');
    expect(api.requests[0]!.headers[VIEWER_TOKEN_HEADER]).toBe('signed-path');
  });

  it('explains a refusal (a masked caller cannot read the PDF)', async () => {
    installFakeApi({
      [callKey(viewerObjectCalls.documentLink)]: () =>
        errorAnswer(403, 'InsufficientPermissions', { action: 'view_privacy' }),
    });
    show(pdf);
    await waitFor(() => expect(screen.getByTestId('object-view').querySelector('.viewer-object-error')).not.toBeNull());
    expect(screen.queryByTestId('pdf-frame')).toBeNull();
  });
});
