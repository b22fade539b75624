/**
 * The domain's footerHtml is configured by an administrator; we show its text only, never inject
 * its markup, so a bad configuration cannot run script in every user's session.
 */
export function htmlToText(html: string): string {
  if (!html) {
    return '';
  }
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
