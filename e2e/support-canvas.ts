import type { Page } from 'playwright-core';

/** How many pixels of a viewer viewport's canvas are not black, and a cheap fingerprint of them. */
export function canvasStats(p: Page, index = 0): Promise<{ lit: number; sum: number }> {
  return p.evaluate((i) => {
    const canvas = document.querySelector<HTMLCanvasElement>(`[data-testid="viewport-${i}"] canvas`);
    if (!canvas || canvas.width === 0) return { lit: 0, sum: 0 };
    const ctx = canvas.getContext('2d');
    if (!ctx) return { lit: 0, sum: 0 };
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let lit = 0;
    let sum = 0;
    for (let k = 0; k < data.length; k += 4) {
      const v = data[k]! + data[k + 1]! + data[k + 2]!;
      if (v > 30) lit++;
      sum += v;
    }
    return { lit, sum };
  }, index);
}
