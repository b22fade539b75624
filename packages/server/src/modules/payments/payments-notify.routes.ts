import { wechatNotifyCalls } from '@yyp/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { definePublicCallRoute } from '../../platform/call-route.js';
import type { WechatNotifyService } from './notify.service.js';

/** The headers as the provider reads them (one value each). */
function headersOf(request: FastifyRequest): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) out[name] = Array.isArray(value) ? value[0] : value;
  return out;
}

/**
 * WeChat Pay's notification routes (public): registered in a scope of their own whose JSON parser
 * keeps the body as the raw string, since the platform signature covers the bytes as sent.
 */
export async function wechatNotifyRoutes(app: FastifyInstance, notify: WechatNotifyService): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    const raw = (body: unknown) => (typeof body === 'string' ? body : '');
    definePublicCallRoute(scope, wechatNotifyCalls.payment, {
      summary: "WeChat Pay's payment notification (TRANSACTION.SUCCESS), verified over the raw body",
      handler: ({ request }) => notify.payment(headersOf(request), raw(request.body), auditContext(request)),
    });
    definePublicCallRoute(scope, wechatNotifyCalls.refund, {
      summary: "WeChat Pay's refund notification (REFUND.*), verified over the raw body",
      handler: ({ request }) => notify.refund(headersOf(request), raw(request.body), auditContext(request)),
    });
  });
}
