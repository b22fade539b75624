/**
 * The domain's footerHtml (spec 000 §1; issue 27 "footerHtml — sanitised"): a platform admin's
 * few lines under the login page — a copyright, a filing number (备案号) with its link. It is
 * rebuilt, never filtered: text is decoded and escaped again, and only these tags come back,
 * with only these attributes; a link only to http(s) or mailto. Anything else (scripts, styles,
 * event handlers, images, javascript: links) is gone, its text kept. The server stores the
 * result; the web builds elements from it (ui/FooterHtml) and never injects markup.
 */
export const FOOTER_TAGS = ['a', 'b', 'strong', 'i', 'em', 'u', 'small', 'span', 'p', 'br'] as const;
export type FooterTag = (typeof FOOTER_TAGS)[number];
const ALLOWED = new Set<string>(FOOTER_TAGS);
const VOID = new Set(['br']);
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes the common named entities and every numeric one. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, name: string) => {
    if (name[0] === '#') {
      const hex = name[1] === 'x' || name[1] === 'X';
      const code = hex ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '';
    }
    return NAMED[name.toLowerCase()] ?? m;
  });
}

const escapeText = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A link target the footer may keep: http(s) or mailto, without control characters. */
export function safeFooterHref(raw: string): string | null {
  // eslint-disable-next-line no-control-regex
  const href = decodeEntities(raw).replace(/[\u0000-\u001f\u007f\s]+/g, '');
  return /^(https?:\/\/|mailto:)/i.test(href) ? href : null;
}

function attributes(source: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of source.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    const name = m[1]!.toLowerCase();
    if (!out.has(name)) out.set(name, m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

function openTag(name: string, attrSource: string): string {
  if (name !== 'a') return `<${name}>`;
  const attrs = attributes(attrSource);
  const href = safeFooterHref(attrs.get('href') ?? '');
  const title = attrs.get('title');
  return `<a${href ? ` href="${escapeText(href)}" target="_blank" rel="noopener noreferrer"` : ''}${
    title ? ` title="${escapeText(decodeEntities(title))}"` : ''
  }>`;
}

export function sanitizeFooterHtml(html: string): string {
  const source = html
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .replace(/<(script|style|template|textarea|title|iframe|object|noscript)\b[\s\S]*?(<\/\1\s*>|$)/gi, '');
  const open: string[] = [];
  let out = '';
  for (const m of source.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>|<|[^<]+/g)) {
    const [token, closing, rawName, attrSource] = m;
    if (rawName === undefined) {
      out += escapeText(token === '<' ? '<' : decodeEntities(token));
      continue;
    }
    const name = rawName.toLowerCase();
    if (!ALLOWED.has(name)) continue;
    if (VOID.has(name)) {
      if (!closing) out += '<br>';
      continue;
    }
    if (!closing) {
      out += openTag(name, attrSource ?? '');
      open.push(name);
      continue;
    }
    const at = open.lastIndexOf(name);
    if (at < 0) continue;
    while (open.length > at) out += `</${open.pop()!}>`;
  }
  while (open.length > 0) out += `</${open.pop()!}>`;
  return out.trim();
}
