/**
 * A key image: the viewport's rendered canvas with its annotation layer (the SVG the tools draw)
 * composed on top, as PNG. Corner texts are left out: they may carry private fields, and the
 * report shows the patient anyway.
 */
export async function captureViewport(element: HTMLElement): Promise<Blob> {
  const canvas = element.querySelector('canvas');
  if (!canvas) throw new Error('nothing to capture');
  const out = document.createElement('canvas');
  out.width = canvas.width;
  out.height = canvas.height;
  const ctx = out.getContext('2d');
  if (!ctx) throw new Error('no 2D context');
  ctx.drawImage(canvas, 0, 0);
  const svg = element.querySelector('svg');
  if (svg) {
    const copy = svg.cloneNode(true) as SVGSVGElement;
    const box = svg.getBoundingClientRect();
    copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    copy.setAttribute('width', String(Math.max(1, Math.round(box.width))));
    copy.setAttribute('height', String(Math.max(1, Math.round(box.height))));
    const url = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(copy))}`;
    const image = new Image();
    image.src = url;
    await image.decode();
    ctx.drawImage(image, 0, 0, out.width, out.height);
  }
  return new Promise((resolve, reject) =>
    out.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('capture failed'))), 'image/png'),
  );
}
