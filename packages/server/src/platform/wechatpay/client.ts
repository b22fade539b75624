import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import {
  REFUND_STATUSES,
  TRADE_STATES,
  WechatPayChannelError,
  WechatPayNotificationError,
  type RefundStatus,
  type WechatPayNotification,
  type WechatPayProvider,
} from './provider.js';
import {
  authorizationHeader,
  decryptResource,
  freshSignedAt,
  headerReader,
  signedMessageProblem,
  type SigningKey,
} from './signature.js';

/** What the adapter needs: the merchant's identity and keys, and the platform's keys by serial. */
export interface WechatPayClientOptions {
  /** https://api.mch.weixin.qq.com (live) or the simulator's loopback origin */
  baseUrl: string;
  mchid: string;
  appid: string;
  merchant: SigningKey;
  apiV3Key: string;
  /** platform certificate serials (uppercase hex) or public key ids → public keys */
  platformKeys: ReadonlyMap<string, KeyObject>;
  timeoutMs?: number;
  now?: () => Date;
}

const USER_AGENT = 'yyp (wechatpay-axios-plugin/0.9; node)';

const amountAnswer = z.object({ total: z.number().int(), currency: z.string().optional() });
const orderAnswer = z.object({
  out_trade_no: z.string(),
  trade_state: z.enum(TRADE_STATES as [string, ...string[]]),
  transaction_id: z.string().optional(),
  success_time: z.string().optional(),
  amount: amountAnswer.optional(),
});
const refundAnswer = z.object({
  refund_id: z.string(),
  out_refund_no: z.string(),
  status: z.enum(REFUND_STATUSES as [string, ...string[]]),
  amount: z.object({ refund: z.number().int(), total: z.number().int(), currency: z.string().optional() }),
});
const notificationBody = z.object({
  id: z.string(),
  event_type: z.string(),
  resource_type: z.string().optional(),
  resource: z.object({
    algorithm: z.string(),
    ciphertext: z.string(),
    associated_data: z.string().optional(),
    nonce: z.string(),
    original_type: z.string().optional(),
  }),
});
const transactionResource = z.object({
  mchid: z.string(),
  appid: z.string().optional(),
  out_trade_no: z.string(),
  transaction_id: z.string(),
  trade_state: z.string(),
  success_time: z.string(),
  amount: amountAnswer,
});
const refundResource = z.object({
  mchid: z.string(),
  out_trade_no: z.string(),
  out_refund_no: z.string(),
  refund_id: z.string(),
  refund_status: z.string(),
  amount: z.object({ refund: z.number().int(), total: z.number().int() }),
});

/** RFC 3339 in China time, as WeChat Pay writes and expects it (2026-11-27T17:30:00+08:00). */
export function rfc3339China(d: Date): string {
  const shifted = new Date(d.getTime() + 8 * 3600_000);
  return `${shifted.toISOString().slice(0, 19)}+08:00`;
}

function date(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** The real adapter: API v3 over HTTPS (or the simulator's loopback HTTP), every answer's signature checked. */
export function createWechatPayClient(o: WechatPayClientOptions): WechatPayProvider {
  const now = o.now ?? (() => new Date());
  const base = o.baseUrl.replace(/\/+$/, '');

  async function call(method: 'GET' | 'POST', path: string, payload?: object): Promise<unknown> {
    const url = new URL(base + path);
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': USER_AGENT,
      Authorization: authorizationHeader(
        o.mchid,
        o.merchant,
        { method, uri: url.pathname + url.search, body },
        freshSignedAt(now()),
      ),
    };
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method,
        headers,
        body: payload === undefined ? undefined : body,
        redirect: 'error',
        signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
      });
      text = await res.text();
    } catch (err) {
      throw new WechatPayChannelError(
        `WeChat Pay did not answer ${method} ${path}: ${String(err)}`,
        undefined,
        'NETWORK',
      );
    }
    if (!res.ok) {
      let code = 'HTTP_' + res.status;
      let message = text.slice(0, 200);
      try {
        const e = JSON.parse(text) as { code?: unknown; message?: unknown };
        if (typeof e.code === 'string') code = e.code;
        if (typeof e.message === 'string') message = e.message;
      } catch {
        // not JSON: keep the status
      }
      throw new WechatPayChannelError(`WeChat Pay answered ${res.status} ${code}: ${message}`, res.status, code);
    }
    // Only a 2xx answer is trusted, and only once the platform's signature over it verifies.
    const problem = signedMessageProblem((n) => res.headers.get(n) ?? undefined, text, o.platformKeys, now());
    if (problem !== null) {
      throw new WechatPayChannelError(
        `WeChat Pay's answer to ${method} ${path} is not trusted: ${problem}`,
        res.status,
        'SIGNATURE_INVALID',
      );
    }
    if (text === '') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new WechatPayChannelError(`WeChat Pay's answer to ${method} ${path} is not JSON`, res.status, 'BAD_ANSWER');
    }
  }

  function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
    const r = schema.safeParse(value);
    if (!r.success) throw new WechatPayChannelError(`WeChat Pay's ${what} is not as documented`, 200, 'BAD_ANSWER');
    return r.data;
  }

  const enc = encodeURIComponent;

  return {
    async createNativeOrder(i) {
      const answer = await call('POST', '/v3/pay/transactions/native', {
        appid: o.appid,
        mchid: o.mchid,
        description: i.description.slice(0, 127),
        out_trade_no: i.outTradeNo,
        time_expire: rfc3339China(i.expiresAt),
        notify_url: i.notifyUrl,
        amount: { total: i.amountFen, currency: i.currency },
      });
      return { codeUrl: parse(z.object({ code_url: z.string().min(1) }), answer, 'order answer').code_url };
    },

    async queryOrder(outTradeNo) {
      const answer = parse(
        orderAnswer,
        await call('GET', `/v3/pay/transactions/out-trade-no/${enc(outTradeNo)}?mchid=${enc(o.mchid)}`),
        'order query answer',
      );
      return {
        tradeState: answer.trade_state as (typeof TRADE_STATES)[number],
        transactionId: answer.transaction_id,
        amountFen: answer.amount?.total,
        currency: answer.amount?.currency,
        successTime: date(answer.success_time),
      };
    },

    async closeOrder(outTradeNo) {
      await call('POST', `/v3/pay/transactions/out-trade-no/${enc(outTradeNo)}/close`, { mchid: o.mchid });
    },

    async refund(i) {
      const answer = parse(
        refundAnswer,
        await call('POST', '/v3/refund/domestic/refunds', {
          out_trade_no: i.outTradeNo,
          out_refund_no: i.outRefundNo,
          ...(i.reason ? { reason: i.reason.slice(0, 80) } : {}),
          notify_url: i.notifyUrl,
          amount: { refund: i.refundFen, total: i.totalFen, currency: i.currency },
        }),
        'refund answer',
      );
      return { refundId: answer.refund_id, status: answer.status as RefundStatus };
    },

    async queryRefund(outRefundNo) {
      const answer = parse(
        refundAnswer,
        await call('GET', `/v3/refund/domestic/refunds/${enc(outRefundNo)}`),
        'refund query answer',
      );
      return { refundId: answer.refund_id, status: answer.status as RefundStatus, amountFen: answer.amount.refund };
    },

    parseNotification(headers, rawBody) {
      return parseNotification(o, headers, rawBody, now());
    },
  };
}

function parseNotification(
  o: Pick<WechatPayClientOptions, 'mchid' | 'apiV3Key' | 'platformKeys'>,
  headers: Record<string, string | undefined>,
  rawBody: string,
  now: Date,
): WechatPayNotification {
  const problem = signedMessageProblem(headerReader(headers), rawBody, o.platformKeys, now);
  if (problem !== null) throw new WechatPayNotificationError(problem);
  let body: z.infer<typeof notificationBody>;
  let plain: unknown;
  try {
    body = notificationBody.parse(JSON.parse(rawBody));
    plain = JSON.parse(decryptResource(body.resource, o.apiV3Key));
  } catch {
    throw new WechatPayNotificationError('the notification or its resource does not decrypt and parse');
  }
  if (body.event_type === 'TRANSACTION.SUCCESS') {
    const t = transactionResource.safeParse(plain);
    if (!t.success || t.data.mchid !== o.mchid) throw new WechatPayNotificationError('not a transaction of ours');
    const successTime = date(t.data.success_time);
    if (!successTime) throw new WechatPayNotificationError('the success time is not a date');
    return {
      eventType: 'TRANSACTION.SUCCESS',
      transaction: {
        outTradeNo: t.data.out_trade_no,
        transactionId: t.data.transaction_id,
        tradeState: t.data.trade_state,
        amountFen: t.data.amount.total,
        currency: t.data.amount.currency ?? 'CNY',
        successTime,
      },
    };
  }
  if (
    body.event_type === 'REFUND.SUCCESS' ||
    body.event_type === 'REFUND.ABNORMAL' ||
    body.event_type === 'REFUND.CLOSED'
  ) {
    const r = refundResource.safeParse(plain);
    if (!r.success || r.data.mchid !== o.mchid) throw new WechatPayNotificationError('not a refund of ours');
    return {
      eventType: body.event_type,
      refund: {
        outTradeNo: r.data.out_trade_no,
        outRefundNo: r.data.out_refund_no,
        refundId: r.data.refund_id,
        status: r.data.refund_status,
        refundFen: r.data.amount.refund,
      },
    };
  }
  throw new WechatPayNotificationError(`unknown event type ${body.event_type}`);
}
