import { sanitizeFooterHtml, safeFooterHref } from '@yyp/contracts';
import { Fragment, type ReactNode } from 'react';

const INLINE = new Set(['b', 'strong', 'i', 'em', 'u', 'small', 'span', 'p']);

function build(node: ChildNode, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const name = element.tagName.toLowerCase();
  const children = Array.from(element.childNodes).map(build);
  if (name === 'br') return <br key={key} />;
  if (name === 'a') {
    const href = safeFooterHref(element.getAttribute('href') ?? '');
    return href ? (
      <a
        key={key}
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        title={element.getAttribute('title') ?? undefined}
      >
        {children}
      </a>
    ) : (
      <Fragment key={key}>{children}</Fragment>
    );
  }
  if (INLINE.has(name)) {
    const Tag = name as 'b';
    return <Tag key={key}>{children}</Tag>;
  }
  return <Fragment key={key}>{children}</Fragment>;
}

/**
 * The domain's footer (spec 000 §1): its HTML sanitised again here (contracts footer-html.ts,
 * as the server stored it) and turned into React elements of the allowed tags only; no markup is
 * ever injected, so a bad configuration cannot run script on the login page.
 */
export function FooterHtml({ html }: { html: string }) {
  const clean = sanitizeFooterHtml(html);
  if (!clean) return null;
  const doc = new DOMParser().parseFromString(`<body>${clean}</body>`, 'text/html');
  return <>{Array.from(doc.body.childNodes).map(build)}</>;
}
