/** Helpers of the print page that need no React. */

/** The print page of a report; `auto` prints at once, `recorded` when the print time is already recorded (approve-and-print). */
export function printPath(
  examId: string,
  reportId: string,
  options: { auto?: boolean; recorded?: boolean } = {},
): string {
  const query = new URLSearchParams();
  if (options.auto) {
    query.set('auto', '1');
  }
  if (options.recorded) {
    query.set('recorded', '1');
  }
  const search = query.toString();
  return `/studies/${encodeURIComponent(examId)}/reports/${encodeURIComponent(reportId)}/print${search ? `?${search}` : ''}`;
}

/** Resolves once every image under `root` has loaded or failed (or after `timeoutMs`), so a print shows them. */
export function whenImagesLoaded(root: ParentNode, timeoutMs = 8000): Promise<void> {
  const pending = [...root.querySelectorAll('img')].filter((img) => !img.complete);
  if (pending.length === 0) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    let left = pending.length;
    const timer = setTimeout(resolve, timeoutMs);
    const done = () => {
      left -= 1;
      if (left === 0) {
        clearTimeout(timer);
        resolve();
      }
    };
    for (const img of pending) {
      img.addEventListener('load', done, { once: true });
      img.addEventListener('error', done, { once: true });
    }
  });
}

/** A file name for the downloaded PDF. */
export function pdfFileName(accessionNumber: string, reportId: string): string {
  const base = (accessionNumber || reportId).replace(/[^\w.-]+/g, '_').slice(0, 64);
  return `report-${base}.pdf`;
}
