import { describe, expect, it } from 'vitest';
import { pdfFileName, printPath, whenImagesLoaded } from './printing';

describe('print page helpers', () => {
  it('builds the print path with its options', () => {
    expect(printPath('e 1', 'r/1')).toBe('/studies/e%201/reports/r%2F1/print');
    expect(printPath('e', 'r', { auto: true, recorded: true })).toBe('/studies/e/reports/r/print?auto=1&recorded=1');
  });
  it('names the PDF after the accession number, else the report', () => {
    expect(pdfFileName('A 12/3', 'r1')).toBe('report-A_12_3.pdf');
    expect(pdfFileName('', 'r1')).toBe('report-r1.pdf');
  });
  it('waits for images still loading, and not for loaded ones', async () => {
    const root = document.createElement('div');
    await expect(whenImagesLoaded(root)).resolves.toBeUndefined();
    const img = document.createElement('img');
    Object.defineProperty(img, 'complete', { value: false });
    root.appendChild(img);
    let done = false;
    const waiting = whenImagesLoaded(root).then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    img.dispatchEvent(new Event('error'));
    await waiting;
    expect(done).toBe(true);
  });
});
