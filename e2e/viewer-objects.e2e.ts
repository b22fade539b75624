import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateStudy } from '../packages/server/src/dicom/testdata/generate.js';
import {
  generateGsps,
  generateKeyObject,
  generatePdf,
  generateSr,
  samplePdf,
} from '../packages/server/src/dicom/testdata/objects.js';
import {
  api,
  apiLogin,
  examIdsOfPatient,
  launchBrowser,
  openPage,
  screenshot,
  shotIfFailed,
  step,
  stowInstances,
  viewerPath,
} from './support.js';

/**
 * Issue 28 item 10: every object opens in the viewer. A study with a CT series, a Structured Report
 * (in GB18030, as Chinese modalities write them), an encapsulated PDF and a key object selection:
 * the SR reads as text, the PDF shows inline, the key image is marked and reached from the list.
 */

let browser: Browser;
let context: BrowserContext | undefined;
let page: Page | undefined;

beforeAll(async () => {
  // The full browser: its PDF viewer draws the framed PDF (the headless shell has none).
  browser = await launchBrowser({ pdfViewer: true });
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async ({ task }) => {
  await shotIfFailed(task, page);
});

const thumbOf = (p: Page, kind: string) =>
  p.getByTestId('series-thumb').filter({ has: p.locator(`[data-testid="object-thumb"][data-kind="${kind}"]`) });

describe('objects in the viewer', () => {
  it('opens a study with an SR, a PDF and key images', async () => {
    const tech = (await apiLogin('tech')).accessToken;
    const senior = (await apiLogin('senior')).accessToken;
    const uploadable = await api<{ id: string }[]>('/yyp/api/v1/buckets/uploadable', tech);
    const bucketId = uploadable.body[0]!.id;

    step('store the study and its objects');
    const patient = { patientId: 'E2E-OBJECTS', patientName: '对象^测试' };
    const ct = generateStudy({
      modality: 'CT',
      instancesPerSeries: 3,
      rows: 128,
      columns: 128,
      charset: 'GB18030',
      ...patient,
    });
    const s = { studyInstanceUid: ct.studyInstanceUid, charset: 'GB18030' as const, ...patient };
    const sr = generateSr({ ...s, seriesNumber: 90, verifier: '王^芳' }, [
      { type: 'PNAME', rel: 'HAS OBS CONTEXT', concept: ['121008', '观察者'], value: '李^雷' },
      {
        type: 'CONTAINER',
        rel: 'CONTAINS',
        concept: ['121070', '影像所见'],
        children: [
          { type: 'TEXT', rel: 'CONTAINS', concept: ['121071', '所见'], text: '右肺上叶见一结节，边界清楚。' },
          {
            type: 'NUM',
            rel: 'CONTAINS',
            concept: ['410668003', '长径'],
            num: ['12.5', 'mm'],
            children: [
              { type: 'CODE', rel: 'HAS PROPERTIES', concept: ['363698007', '部位'], code: ['39607008', '肺'] },
            ],
          },
        ],
      },
      {
        type: 'CONTAINER',
        rel: 'CONTAINS',
        concept: ['121076', '诊断意见'],
        children: [{ type: 'TEXT', rel: 'CONTAINS', concept: ['121077', '结论'], text: '建议三个月后复查胸部 CT。' }],
      },
    ]);
    const pdf = generatePdf({ ...s, seriesNumber: 91 }, samplePdf('Outside hospital report'));
    const ko = generateKeyObject({ ...s, seriesNumber: 92 }, [ct.instances[2]!], '结节');
    // A presentation state circling the bone disk of the key image, with a label. The disk's centre
    // is pixel (0.7 × 128, 64), whose centre in GSPS units (0,0 the first pixel's corner) is 90.1, 64.5.
    const pr = generateGsps(
      { ...s, seriesNumber: 93 },
      [ct.instances[2]!],
      [{ type: 'CIRCLE', points: [90.1, 64.5, 99.1, 64.5] }],
      {
        value: '结节',
        anchor: [98, 54],
      },
    );
    await stowInstances(
      tech,
      bucketId,
      [...ct.instances, sr, pdf, ko, pr].map((i) => i.bytes),
    );
    const [examId] = await examIdsOfPatient(senior, 'E2E-OBJECTS');

    ({ context, page } = await openPage(browser));
    const p = page;
    const cspErrors: string[] = [];
    p.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text())) cspErrors.push(m.text());
    });
    await p.goto(await viewerPath(senior, examId!));

    step('the SR reads as text');
    await thumbOf(p, 'sr').click();
    const panel = p.getByTestId('sr-panel');
    await panel.waitFor();
    await expect.poll(() => panel.innerText(), { timeout: 30_000 }).toContain('右肺上叶见一结节，边界清楚。');
    const text = await panel.innerText();
    for (const shown of [
      '影像所见',
      '长径: 12.5 mm',
      '部位: 肺',
      '李雷',
      '王芳',
      '已完成',
      '已审核',
      '建议三个月后复查胸部 CT。',
    ]) {
      expect(text).toContain(shown);
    }
    await screenshot(p, 'viewer-objects-sr');

    step('the key image is listed, marked, and shown');
    const keys = p.getByTestId('key-image-link');
    await expect.poll(() => keys.count(), { timeout: 30_000 }).toBe(1);
    await keys.first().click();
    await p.getByTestId('key-image-0').waitFor();
    await expect.poll(() => p.getByTestId('instance-0').innerText(), { timeout: 30_000 }).toContain('(3/3)');
    // The series loads to the end (it stopped at 0 of 3 when the key image's move raced the stack).
    await expect.poll(() => p.getByTestId('progress-0').count(), { timeout: 30_000 }).toBe(0);
    await screenshot(p, 'viewer-objects-key-image');

    step('the presentation state draws its circle and label over the key image');
    const overlay = p.getByTestId('gsps-overlay');
    await overlay.waitFor({ timeout: 30_000 });
    expect(await overlay.getAttribute('data-shapes')).toBe('2');
    const drawn = await p.evaluate(() => {
      const box = (e: Element | null) => {
        const r = e!.getBoundingClientRect();
        return { left: r.left, top: r.top, width: r.width, height: r.height };
      };
      const cell = document.querySelector('[data-testid="viewport-0"]')!;
      const canvas = cell.querySelector('canvas')!;
      const svg = cell.querySelector('[data-testid="gsps-overlay"]')!;
      const text = svg.querySelector('text')!;
      return {
        element: box(cell.querySelector('.viewer-element')),
        canvas: { ...box(canvas), pixelWidth: canvas.width },
        svg: box(svg),
        circle: box(svg.querySelector('ellipse')),
        label: { text: text.textContent, x: Number(text.getAttribute('x')), y: Number(text.getAttribute('y')) },
      };
    });
    // Where the image point lands on screen, computed here: the 128 × 128 image fitted to the
    // element and centred (no zoom or pan yet); GSPS pixel 0,0 is the image's top left corner.
    const { element } = drawn;
    const scale = Math.min(element.width, element.height) / 128;
    const screenOf = (x: number, y: number) => [
      element.left + (element.width - 128 * scale) / 2 + x * scale,
      element.top + (element.height - 128 * scale) / 2 + y * scale,
    ];
    const [cx, cy] = screenOf(90.1, 64.5);
    const { circle } = drawn;
    expect(Math.abs(circle.left + circle.width / 2 - cx!)).toBeLessThan(3);
    expect(Math.abs(circle.top + circle.height / 2 - cy!)).toBeLessThan(3);
    // Radius 9 image pixels, the stroke's width aside.
    expect(Math.abs(circle.width / 2 - 9 * scale)).toBeLessThan(3);
    expect(Math.abs(circle.height / 2 - 9 * scale)).toBeLessThan(3);
    // The label at its anchor (98, 54), drawn 4 px right of and above it.
    const [ax, ay] = screenOf(98, 54);
    expect(drawn.label.text).toBe('结节');
    expect(Math.abs(drawn.svg.left + drawn.label.x - 4 - ax!)).toBeLessThan(3);
    expect(Math.abs(drawn.svg.top + drawn.label.y + 4 - ay!)).toBeLessThan(3);
    // And it circles what the image shows there: the bright bone disk of the phantom.
    const ratio = drawn.canvas.pixelWidth / drawn.canvas.width;
    const under = await p.evaluate(
      ([x, y]) => {
        const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="viewport-0"] canvas')!;
        return Array.from(canvas.getContext('2d')!.getImageData(x!, y!, 1, 1).data.slice(0, 3));
      },
      [Math.round((cx! - drawn.canvas.left) * ratio), Math.round((cy! - drawn.canvas.top) * ratio)],
    );
    expect(Math.min(...under)).toBeGreaterThan(200);
    await screenshot(p, 'viewer-objects-gsps');

    step('the PDF shows inline');
    const served = p.waitForResponse((r) => r.url().includes('/yyp/api/v1/viewer/document?link='));
    await thumbOf(p, 'pdf').click();
    const response = await served;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    // The frame shows Chromium's PDF viewer; the link itself answers the document's bytes.
    const again = await p.request.get(response.url());
    expect((await again.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await p.getByTestId('pdf-frame').waitFor();
    await p.waitForTimeout(1500);
    await screenshot(p, 'viewer-objects-pdf');
    expect(cspErrors).toEqual([]);
    await context.close();
    context = undefined;
  });
});
