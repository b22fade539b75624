import type { SimOrder } from './ledger.js';

/**
 * The simulator's stand-in for the WeChat app: what a payer sees after scanning the QR code. Not
 * part of yyp's UI (no i18n): it speaks Chinese and English like the sandbox pages it replaces.
 */

function escape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem;color:#222}
.amount{font-size:2rem;font-weight:600;margin:1rem 0}button{background:#07c160;color:#fff;border:0;border-radius:.4rem;
padding:.8rem 2rem;font-size:1.1rem;cursor:pointer}.note{color:#888;font-size:.85rem}</style></head>
<body>${body}<p class="note">WeChat Pay simulator (yyp) · 微信支付模拟器</p></body></html>`;
}

function amount(o: SimOrder): string {
  return `${o.currency === 'USD' ? '$' : '¥'}${(o.total / 100).toFixed(2)}`;
}

export function scanPage(order: SimOrder | undefined, codeUrl: string): string {
  if (!order) return page('未找到订单', `<h1>未找到订单 · Unknown order</h1><p>${escape(codeUrl)}</p>`);
  const head = `<h1>${escape(order.description)}</h1><div class="amount" data-testid="sim-amount">${amount(order)}</div>`;
  if (order.state !== 'NOTPAY') {
    return page('订单状态', `${head}<p data-testid="sim-state">${escape(order.state)}</p>`);
  }
  return page(
    '确认付款',
    `${head}<p>商户订单号 · Order ${escape(order.outTradeNo)}</p>
<form method="post" action="/sim/pay"><input type="hidden" name="code_url" value="${escape(codeUrl)}">
<button type="submit" data-testid="sim-pay">支付 · Pay</button></form>`,
  );
}

export function paidPage(order: SimOrder): string {
  return page(
    '支付成功',
    `<h1 data-testid="sim-paid">支付成功 · Paid</h1><div class="amount">${amount(order)}</div><p>${escape(order.description)}</p>`,
  );
}

export function errorPage(message: string): string {
  return page('无法支付', `<h1>无法支付 · Cannot pay</h1><p data-testid="sim-error">${escape(message)}</p>`);
}
