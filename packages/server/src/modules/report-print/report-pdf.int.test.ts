import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHospital } from '../../test/factories-reports.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { locateFonts } from './fonts.js';
import { inkedPixels, keyImagePng, logoPng, makePng, readPng, signaturePng, stampPng } from './png.fixture.js';
import { printFixture } from './report-print.fixture.js';

/**
 * The report PDF rendered on the server: Chinese, English and Tibetan drawn with packaged system
 * fonts (Debian fonts-noto-cjk, fonts-tibetan-machine), checked with poppler-utils (pdftoppm,
 * pdftotext) as a reader would see it; markup in the text prints as text and fetches nothing.
 */
let t: TestApp;
let tok: Record<string, string> = {};
let radiology = '';
let f: ReturnType<typeof printFixture>;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-report-pdf-'));
/** Set REPORT_PDF_OUT to a folder to keep the PDFs and page images for a look. */
const keep = process.env.REPORT_PDF_OUT;

const TIBETAN = 'བོད་ཡིག་གི་སྙན་ཞུ། གློ་བ་གཉིས་ཀ་གསལ་པོ་འདུག སྒྲུབ་བརྒྱུད་';

function save(name: string, pdf: Buffer): string {
  const file = path.join(work, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  if (keep) fs.copyFileSync(file, path.join(keep, `${name}.pdf`));
  return file;
}
function firstPage(file: string, name: string): Buffer {
  const prefix = path.join(work, name);
  execFileSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', '-singlefile', file, prefix]);
  const png = fs.readFileSync(`${prefix}.png`);
  if (keep) {
    execFileSync('pdftoppm', ['-png', '-r', '110', '-f', '1', '-l', '1', '-singlefile', file, path.join(keep, name)]);
  }
  return png;
}
const text = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });

async function pdfOf(who: string, id: string, lang = '') {
  return t.app.inject({
    method: 'GET',
    url: `/yyp/api/v1/reports/${id}/pdf${lang ? `?lang=${lang}` : ''}`,
    headers: { authorization: `Bearer ${tok[who]}` },
  });
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  ({ tok, radiology } = await makeHospital(t, ['doctor', 'senior', 'tech', 'groupadmin', 'teleadmin']));
  f = printFixture(t, tok);
  const set = await f.as('groupadmin').put(`buckets/${radiology}/print-template`, {
    hospitalName: '仁和医院 Renhe Hospital',
    title: 'CT检查报告单',
    logoKey: await f.upload('groupadmin', logoPng(128)),
    stampKey: await f.upload('groupadmin', stampPng()),
    footerHtml: '<p>地址：健康路1号 · Tel 0891-0000000</p><script>alert(1)</script>本报告仅供临床参考',
    imageColumns: 2,
  });
  expect(set.statusCode, set.body).toBe(200);
  await f.as('doctor').put('signature/mine', { url: await f.upload('doctor', signaturePng()) });
  await f.as('senior').put('signature/mine', { url: await f.upload('senior', signaturePng()) });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('report PDF', () => {
  it('renders an approved report with Chinese, English and Tibetan text', async () => {
    const id = await f.newExam(radiology);
    await f.keyImage(id, keyImagePng(), '肺窗 lung window');
    await f.keyImage(id, keyImagePng(), 'མཐོང་རྟོགས།');
    await f.approved(
      id,
      f.content(
        `双肺纹理清晰，未见明确实变影。\nBoth lungs are clear; no consolidation.\n${TIBETAN}`,
        '胸部CT平扫未见异常。 No acute abnormality.',
        { positive: false },
      ),
    );
    const res = await pdfOf('senior', id);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="report-[\w.-]+\.pdf"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const file = save('report-three-scripts', pdf);
    const words = text(file);
    for (const s of [
      '仁和医院',
      '双肺纹理清晰',
      'Both lungs are clear',
      'No acute abnormality',
      '影像所见',
      '诊断意见',
      '张三',
    ]) {
      expect(words).toContain(s);
    }
    // Tibetan comes back as the same characters (stacked glyphs carry their letters).
    expect(words.replace(/\s+/g, '')).toContain('བོད་ཡིག་གི་སྙན་ཞུ།');
    // Footer markup is dropped, never run; its text prints.
    expect(words).toContain('本报告仅供临床参考');
    expect(words).not.toContain('<p>');

    const page = firstPage(file, 'report-three-scripts');
    // An A4 page at 50 dpi is about 413×585 px: text, images, logo, stamp and signatures ink thousands.
    expect(inkedPixels(page)).toBeGreaterThan(5000);

    // Labels in English and Tibetan when asked.
    const en = text(save('report-en', (await pdfOf('senior', id, 'en')).rawPayload));
    expect(en).toContain('Findings');
    expect(en).toContain('Impression');
    const tib = save('report-tib', (await pdfOf('senior', id, 'tib')).rawPayload);
    expect(inkedPixels(firstPage(tib, 'report-tib'))).toBeGreaterThan(5000);
  });

  it('draws a printed sample graph with its numbered marks under the key images', async () => {
    /** Pixels of the page in the marks' green (#389e0d), which nothing else on the sheet uses. */
    const greenPixels = (file: string, name: string) => {
      const prefix = path.join(work, name);
      execFileSync('pdftoppm', ['-png', '-r', '100', '-f', '1', '-l', '1', '-singlefile', file, prefix]);
      if (keep) fs.copyFileSync(`${prefix}.png`, path.join(keep, `${name}.png`));
      const { channels, pixels } = readPng(fs.readFileSync(`${prefix}.png`));
      let n = 0;
      for (let i = 0; i < pixels.length; i += channels) {
        const [r, g, b] = [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
        if (g > r + 50 && g > b + 50) n++;
      }
      return n;
    };
    const diagram = makePng(300, 200, (x, y) =>
      Math.hypot(x - 150, y - 100) < 80 ? [120, 120, 120, 255] : [255, 255, 255, 255],
    );
    const points = [
      { x: 80, y: 60, color: '#389e0d', label: '1' },
      { x: 290, y: 150, color: '#389e0d', label: '2' },
    ];
    const marked = await f.newExam(radiology);
    const hidden = await f.newExam(radiology);
    for (const [id, isPrinted] of [
      [marked, true],
      [hidden, false],
    ] as const) {
      await f.keyImage(id, keyImagePng(), '肝脏');
      await f.sampleGraph(radiology, id, diagram, '肝脏分段示意图', points, isPrinted);
      await f.approved(id, f.content('肝脏形态大小正常。', '肝脏未见异常。'));
    }
    const res = await pdfOf('senior', marked);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const file = save('report-sample-graph', res.rawPayload);
    expect(text(file)).toContain('肝脏分段示意图');
    // Two circles with their numbers in green; the same report without the graph printed has none.
    expect(greenPixels(file, 'report-sample-graph')).toBeGreaterThan(60);
    const without = save('report-sample-graph-hidden', (await pdfOf('senior', hidden)).rawPayload);
    expect(text(without)).not.toContain('肝脏分段示意图');
    expect(greenPixels(without, 'report-sample-graph-hidden')).toBe(0);
  });

  it('prints markup in the report as literal text and fetches nothing while rendering', async () => {
    const requests: string[] = [];
    const listener = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.end('x');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as { port: number }).port;
    try {
      const hostile = [
        '<script>fetch("http://127.0.0.1:' + port + '/script")</script>',
        '<iframe src="file:///etc/passwd"></iframe>',
        `<img src="http://127.0.0.1:${port}/x">`,
        '<img src="http://127.0.0.1:9/x">',
        `<link rel="stylesheet" href="http://127.0.0.1:${port}/css">`,
      ];
      const id = await f.newExam(radiology);
      await f.approved(id, f.content(hostile.join('\n'), `<object data="file:///etc/passwd"></object>结论`));
      const res = await pdfOf('senior', id);
      expect(res.statusCode).toBe(200);
      const file = save('report-hostile', res.rawPayload);
      const words = text(file).replace(/\s+/g, ' ');
      expect(words).toContain('<script>fetch(');
      expect(words).toContain('<iframe src="file:///etc/passwd"></iframe>');
      expect(words).toContain(`<img src="http://127.0.0.1:${port}/x">`);
      expect(words).toContain('<img src="http://127.0.0.1:9/x">');
      expect(words).toContain('<object data="file:///etc/passwd"></object>结论');
      // Nothing of the file was read into the document.
      expect(res.rawPayload.includes('root:x:0:0')).toBe(false);
      expect(inkedPixels(firstPage(file, 'report-hostile'))).toBeGreaterThan(2000);
      // The print view carries the same text as it was written (the page shows it as text).
      const view = (await f.as('senior').get(`reports/${id}/print-view`)).json() as { reports: { findings: string }[] };
      expect(view.reports[0]!.findings).toBe(hostile.join('\n'));
      await new Promise((r) => setTimeout(r, 200));
      expect(requests).toEqual([]);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it('is for approved reports, to those who print or read exams in the organization', async () => {
    const id = await f.newExam(radiology);
    await f.approved(id, f.content('所见', '结论'), 'submit');
    const draft = await pdfOf('senior', id);
    expect(draft.statusCode).toBe(409);
    expect(draft.json()).toMatchObject({ code: 'ReportNotApproved' });
    await f.ok('senior', `reports/${id}/approve`);
    expect((await pdfOf('tech', id)).statusCode).toBe(200);
    expect((await pdfOf('teleadmin', id)).statusCode).toBe(404);
    expect((await t.call('GET', `reports/${id}/pdf`)).statusCode).toBe(401);
  });

  it('names the Debian package when a font is missing', async () => {
    const missing = {
      debian: 'fonts-tibetan-machine',
      paths: [{ file: '/nonexistent/font.ttf' }],
      patterns: ['No Such Font Family'],
    };
    await expect(locateFonts({ tibetan: missing })).rejects.toMatchObject({
      code: 'ServiceNotConfigured',
      details: { missing: ['fonts-tibetan-machine'] },
    });
    const found = await locateFonts();
    expect(found.text.file).toMatch(/\.tt[cf]$|\.otf$/);
    expect(found.tibetan.data.length).toBeGreaterThan(1000);
  });
});
