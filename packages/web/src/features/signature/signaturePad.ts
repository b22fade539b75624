/** Strokes of a drawn signature, in canvas pixels; pure so undo and redraw are testable. */
export type Point = { x: number; y: number };
export type Stroke = Point[];

export const PAD_LINE_WIDTH = 3;

/** Paints the strokes on a white background (the PNG gets no transparent pixels). */
export function paint(ctx: CanvasRenderingContext2D, strokes: readonly Stroke[], width: number, height: number): void {
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.strokeStyle = '#111111';
  ctx.lineWidth = PAD_LINE_WIDTH;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  for (const stroke of strokes) {
    const [first, ...rest] = stroke;
    if (!first) {
      continue;
    }
    ctx.beginPath();
    ctx.moveTo(first.x, first.y);
    if (rest.length === 0) {
      ctx.lineTo(first.x + 0.1, first.y + 0.1);
    }
    for (const p of rest) {
      ctx.lineTo(p.x, p.y);
    }
    ctx.stroke();
  }
}

/** Whether anything was drawn. */
export function hasInk(strokes: readonly Stroke[]): boolean {
  return strokes.some((s) => s.length > 0);
}
