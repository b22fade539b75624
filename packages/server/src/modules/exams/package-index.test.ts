import { LANGUAGES } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { indexPage, readme, type MediaSummary } from './package-index.js';

const summary: MediaSummary = {
  patients: [
    {
      name: '<script>alert(1)</script>^X',
      id: 'P&1',
      birthDate: '19800102',
      sex: 'M',
      studies: [
        {
          date: '20260101',
          time: '101500',
          description: 'CT "chest" <img src=x onerror=alert(1)>',
          accessionNumber: 'A1',
          series: [
            { number: 1, modality: 'CT', description: "it's", folder: 'DICOM/P0000001/S0000001/SE000001', count: 3 },
            { number: null, modality: 'SR', description: '', folder: 'DICOM/P0000001/S0000001/SE000002', count: 1 },
          ],
        },
      ],
    },
  ],
};

describe('the media index page and README', () => {
  it('escapes every value: no markup of the files reaches the page, nothing runs or is fetched', () => {
    const html = indexPage(summary, 'en');
    const tags = new Set([...html.matchAll(/<\/?([a-zA-Z0-9!]+)/g)].map((m) => m[1]!.toLowerCase()));
    expect([...tags].sort()).toEqual(
      [
        '!doctype',
        'body',
        'code',
        'h1',
        'h2',
        'h3',
        'head',
        'html',
        'meta',
        'p',
        'style',
        'table',
        'td',
        'th',
        'title',
        'tr',
      ].sort(),
    );
    for (const [markup] of html.matchAll(/<[^>]*>/g)) expect(markup).not.toMatch(/\s(src|href|on\w+)=/i);
    expect(html).not.toMatch(/url\(|@import/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('P&amp;1');
    expect(html).toContain('&quot;chest&quot;');
    expect(html).toContain('it&#39;s');
    expect(html).toContain('2026-01-01 10:15');
    expect(html).toContain('Total: 1 patients, 1 studies, 4 files');
  });

  it('speaks each language, and the README says how to burn the folder', () => {
    const pages = LANGUAGES.map((lang) => indexPage(summary, lang));
    expect(new Set(pages).size).toBe(3);
    expect(pages[0]).toContain('<html lang="zh-Hans">');
    expect(pages[2]).toContain('<html lang="bo">');
    for (const lang of LANGUAGES) {
      const text = readme(summary, lang);
      expect(text.startsWith('\ufeff')).toBe(true);
      expect(text).toContain('DICOMDIR');
      expect(text).toContain('\r\n');
    }
  });
});
