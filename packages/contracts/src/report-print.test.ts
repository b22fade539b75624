import { describe, expect, it } from 'vitest';
import { footerPlainText, printTemplateInputSchema } from './report-print.js';

describe('footerPlainText', () => {
  it('keeps the text, turns line-ending tags into breaks and drops every other tag', () => {
    expect(footerPlainText('<p>地址：<b>健康路1号</b></p>电话<br/>0891')).toBe('地址：健康路1号\n电话\n0891');
  });
  it('drops scripts, styles and comments with their content', () => {
    expect(footerPlainText('a<script>alert(1)</script>b<style>p{}</style>c<!-- x -->d')).toBe('abcd');
    expect(footerPlainText('<img src="http://127.0.0.1:9/x" onerror="x()">ok')).toBe('ok');
  });
  it('decodes entities into text that stays text', () => {
    expect(footerPlainText('&lt;b&gt; &amp; &#20013;&#x6587; &nbsp;&unknown;')).toBe('<b> & 中文  &unknown;');
  });
});

describe('print template input', () => {
  it('fills the defaults and refuses what is out of bounds', () => {
    expect(printTemplateInputSchema.parse({ hospitalName: ' 仁和医院 ' })).toEqual({
      hospitalName: '仁和医院',
      title: '',
      footerHtml: '',
      imageColumns: 2,
      showSignatures: true,
    });
    for (const bad of [
      {},
      { hospitalName: '' },
      { hospitalName: 'x', imageColumns: 0 },
      { hospitalName: 'x', logoKey: 1 },
    ]) {
      expect(printTemplateInputSchema.safeParse(bad).success).toBe(false);
    }
  });
});
