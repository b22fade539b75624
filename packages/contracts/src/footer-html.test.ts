import { describe, expect, it } from 'vitest';
import { safeFooterHref, sanitizeFooterHtml } from './footer-html.js';

describe('sanitizeFooterHtml', () => {
  it('keeps the footer a hospital writes: text, emphasis, line breaks, a filing number link', () => {
    const footer =
      '© 2026 仁和医院<br/><a href="https://beian.miit.gov.cn/" title="备案">京ICP备12345678号</a> · <b>急诊</b> <span>电话 010-1234</span>';
    expect(sanitizeFooterHtml(footer)).toBe(
      '© 2026 仁和医院<br><a href="https://beian.miit.gov.cn/" target="_blank" rel="noopener noreferrer" title="备案">京ICP备12345678号</a> · <b>急诊</b> <span>电话 010-1234</span>',
    );
  });

  it.each([
    ['<script>alert(1)</script>hello', 'hello'],
    ['<style>body{display:none}</style>x', 'x'],
    ['<img src=x onerror=alert(1)>y', 'y'],
    ['<a href="javascript:alert(1)">link</a>', '<a>link</a>'],
    ['<a href=" jav&#x09;ascript:alert(1)">link</a>', '<a>link</a>'],
    // A script's start anywhere drops everything after it (as a browser would run it to the end).
    ['<a href="data:text/html,<script>">x</a>', '&lt;a href=&quot;data:text/html,'],
    ['<a href="data:text/html,hi">x</a>', '<a>x</a>'],
    ['<b onclick="alert(1)" style="color:red">bold</b>', '<b>bold</b>'],
    ['<svg><g onload=alert(1)>x</g></svg>', 'x'],
    ['<iframe src="https://evil">inside</iframe>after', 'after'],
    ['<!-- <script>alert(1)</script> -->ok', 'ok'],
    ['<scr<script>ipt>alert(1)</script>', '&lt;scr'],
    ['a < b & c > d', 'a &lt; b &amp; c &gt; d'],
    ['&lt;script&gt;alert(1)&lt;/script&gt;', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['<b><i>unclosed', '<b><i>unclosed</i></b>'],
    ['</b>stray close<i>x</b>y', 'stray close<i>xy</i>'],
    [
      '<a href="mailto:it@example.org">mail</a>',
      '<a href="mailto:it@example.org" target="_blank" rel="noopener noreferrer">mail</a>',
    ],
    [
      '<a href=\'https://a.example/?q="x"\'>q</a>',
      '<a href="https://a.example/?q=&quot;x&quot;" target="_blank" rel="noopener noreferrer">q</a>',
    ],
  ])('%s → %s', (input, expected) => {
    expect(sanitizeFooterHtml(input)).toBe(expected);
  });

  it('is stable: sanitizing its own output changes nothing', () => {
    const samples = [
      '© 仁和<br><a href="https://x.example/a?b=1&amp;c=2">x &amp; y</a>',
      '<p>one</p><p>two <em>three</em></p>',
      '<b>a</i>b</b>',
      'plain & "quoted" \'text\'',
    ];
    for (const s of samples) {
      const once = sanitizeFooterHtml(s);
      expect(sanitizeFooterHtml(once), s).toBe(once);
    }
  });

  it('never lets markup through, whatever the input (random tag soup)', () => {
    const parts = [
      '<',
      '>',
      '/',
      'a',
      'b',
      'script',
      'img',
      ' ',
      '=',
      '"',
      "'",
      'on',
      'href',
      'javascript:',
      'x',
      '&',
      '#',
      ';',
      'br',
    ];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 3000; n++) {
      let input = '';
      for (let k = next() % 40; k > 0; k--) input += parts[next() % parts.length];
      const out = sanitizeFooterHtml(input);
      for (const tag of out.matchAll(/<\/?([a-z]+)([^>]*)>/g)) {
        expect(['a', 'b', 'br'], input).toContain(tag[1]);
        const attrs = tag[2]!;
        expect(attrs === '' || tag[1] === 'a', input).toBe(true);
        expect(attrs, input).not.toMatch(/\son[a-z]*=|javascript:/i);
      }
      expect(out.replace(/<\/?(a|b)(\s[^>]*)?>|<br>/g, ''), input).not.toMatch(/[<>]/);
    }
  });
});

describe('safeFooterHref', () => {
  it('keeps http(s) and mailto only', () => {
    expect(safeFooterHref('https://beian.miit.gov.cn/')).toBe('https://beian.miit.gov.cn/');
    expect(safeFooterHref('HTTP://x.example')).toBe('HTTP://x.example');
    expect(safeFooterHref('//evil.example')).toBeNull();
    expect(safeFooterHref('vbscript:x')).toBeNull();
    expect(safeFooterHref('java\nscript:alert(1)')).toBeNull();
  });
});
