import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KeyObject } from 'node:crypto';
import { randomUUID, X509Certificate } from 'node:crypto';
import { z } from 'zod';
import type { RefundStatus } from '../../platform/wechatpay/provider.js';
import { rfc3339China } from '../../platform/wechatpay/client.js';
import {
  MAX_CLOCK_SKEW_SECONDS,
  encryptResource,
  freshSignedAt,
  parseAuthorization,
  requestSignatureValid,
  signedHeaders,
} from '../../platform/wechatpay/signature.js';
import { makePlatformCertificate } from './certificate.js';
import { SimError, SimLedger, refundJson, refundResourceJson, transactionJson, type SimOrder } from './ledger.js';
import { Notifier, isLoopbackUrl, type Delivery, type Tamper } from './notifier.js';
import { errorPage, paidPage, scanPage } from './scan-page.js';

export interface SimulatorOptions {
  /** the merchant the simulator serves: its ids and the public key of its API certificate */
  merchant: { mchid: string; appid: string; serial: string; publicKey: KeyObject };
  apiV3Key: string;
  /** a refund stays PROCESSING this long, then succeeds and notifies (0: succeeds at once); default 1000 */
  refundDelayMs?: number;
  /** retries of a failed notification; default [1000, 5000] */
  retryDelaysMs?: number[];
  now?: () => Date;
}

export interface NotifyOptions {
  /** deliveries at once (tests of duplicate notifications) */
  times?: number;
  tamper?: Tamper;
}

export interface WechatPaySimulator {
  /** http://127.0.0.1:<port>: the adapter's base URL */
  readonly baseUrl: string;
  readonly platformSerial: string;
  readonly platformCertificatePem: string;
  /** every notification posted (and its answer), oldest first */
  readonly deliveries: readonly Delivery[];
  /** the page a payer's phone would show for a code_url */
  scanUrl(codeUrl: string): string;
  /** what the Pay button does: the order (by code_url or out_trade_no) paid, TRANSACTION.SUCCESS posted */
  pay(codeUrlOrOutTradeNo: string): Promise<Delivery[]>;
  /** posts TRANSACTION.SUCCESS of a paid order again (times, spoilt) */
  notifyTransaction(outTradeNo: string, opts?: NotifyOptions): Promise<Delivery[]>;
  /** settles a PROCESSING refund now (SUCCESS by default) and posts its REFUND.* notification */
  settleRefund(outRefundNo: string, status?: RefundStatus): Promise<Delivery[]>;
  /** posts the refund's current notification again (times, spoilt) */
  notifyRefund(outRefundNo: string, opts?: NotifyOptions): Promise<Delivery[]>;
  /** the order as the simulator holds it */
  order(outTradeNo: string): SimOrder | undefined;
  setRefundDelayMs(ms: number): void;
  /** sends notifications to this origin instead of the notify_url's (undefined: as given) */
  setNotifyOrigin(origin: string | undefined): void;
  /** resolves once no notification or delayed refund is waiting */
  whenIdle(): Promise<void>;
  close(): Promise<void>;
}

const OUT_NO = z.string().regex(/^[A-Za-z0-9_\-|*]{6,32}$/);
const notifyUrl = z
  .string()
  .max(256)
  .refine((u) => /^https?:\/\//.test(u) && !u.includes('?'), 'notify_url must be an http(s) URL without a query');
const nativeBody = z.object({
  appid: z.string().min(1).max(32),
  mchid: z.string().min(1).max(32),
  description: z.string().min(1).max(127),
  out_trade_no: OUT_NO,
  time_expire: z.iso.datetime({ offset: true }).optional(),
  attach: z.string().max(128).optional(),
  notify_url: notifyUrl,
  amount: z.object({ total: z.number().int().min(1), currency: z.string().optional() }),
});
const closeBody = z.object({ mchid: z.string().min(1) });
const refundBody = z.object({
  out_trade_no: OUT_NO.optional(),
  transaction_id: z.string().optional(),
  out_refund_no: OUT_NO.or(z.string().regex(/^[A-Za-z0-9_\-|*@]{1,64}$/)),
  reason: z.string().max(80).optional(),
  notify_url: notifyUrl.optional(),
  amount: z.object({ refund: z.number().int(), total: z.number().int(), currency: z.string() }),
});

interface Answer {
  status: number;
  json?: unknown;
  html?: string;
}

/** Starts the simulator on 127.0.0.1 (an ephemeral port) with a fresh platform key and certificate. */
export async function startWechatPaySimulator(o: SimulatorOptions): Promise<WechatPaySimulator> {
  const now = o.now ?? (() => new Date());
  const platform = makePlatformCertificate({ commonName: 'WeChat Pay platform (simulator)', now: now() });
  const key = { serial: platform.serial, privateKey: platform.privateKey };
  const ledger = new SimLedger();
  const notifier = new Notifier({
    platform: key,
    apiV3Key: o.apiV3Key,
    now,
    retryDelaysMs: o.retryDelaysMs ?? [1000, 5000],
  });
  let refundDelayMs = o.refundDelayMs ?? 1000;
  const { merchant } = o;

  const transactionNotice = (order: SimOrder) => ({
    url: order.notifyUrl,
    eventType: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    originalType: 'transaction',
    resource: transactionJson(order),
    ref: order.outTradeNo,
  });
  const refundNotice = (outRefundNo: string) => {
    const refund = ledger.refundOf(outRefundNo);
    if (refund.status === 'PROCESSING') throw new Error(`refund ${outRefundNo} is still processing`);
    // Without a notify_url WeChat Pay uses one set in the merchant platform; the simulator has none.
    if (!refund.notifyUrl) throw new Error(`refund ${outRefundNo} was asked without a notify_url`);
    return {
      url: refund.notifyUrl,
      eventType: `REFUND.${refund.status}`,
      summary: refund.status === 'SUCCESS' ? '退款成功' : '退款异常',
      originalType: 'refund',
      resource: refundResourceJson(refund, merchant.mchid),
      ref: outRefundNo,
    };
  };
  /** the delayed settlements waiting, by out_refund_no: a test that settles one by hand cancels its timer */
  const settling = new Map<string, () => void>();
  const settle = (outRefundNo: string, status: RefundStatus = 'SUCCESS') => {
    settling.get(outRefundNo)?.();
    settling.delete(outRefundNo);
    const refund = ledger.refundOf(outRefundNo);
    if (refund.status !== 'PROCESSING') return Promise.resolve([]);
    ledger.settleRefund(outRefundNo, now(), status);
    return refund.notifyUrl ? notifier.send(refundNotice(outRefundNo)) : Promise.resolve([]);
  };
  /** The payer pays: the order paid, TRANSACTION.SUCCESS posted (`times` deliveries at once: bench/billing). */
  const payOrder = (order: SimOrder, times = 1) => {
    ledger.pay(order.outTradeNo, now());
    return notifier.send(transactionNotice(order), { times });
  };

  /** The checks WeChat Pay makes of every API v3 request before it reads it. */
  function authenticate(req: http.IncomingMessage, uri: string, body: string): void {
    if (!req.headers['user-agent']) throw new SimError(400, 'INVALID_REQUEST', 'User-Agent 必填');
    if (!/application\/json|\*\/\*/.test(req.headers.accept ?? '')) {
      throw new SimError(400, 'INVALID_REQUEST', 'Accept 须为 application/json');
    }
    const parts = parseAuthorization(req.headers.authorization);
    if (!parts) throw new SimError(401, 'SIGN_ERROR', 'Authorization 格式不正确');
    if (parts.mchid !== merchant.mchid) throw new SimError(401, 'SIGN_ERROR', '商户号不存在');
    if (parts.serial.toUpperCase() !== merchant.serial.toUpperCase()) {
      throw new SimError(401, 'SIGN_ERROR', '商户证书序列号有误');
    }
    const skew = Math.abs(Math.floor(now().getTime() / 1000) - Number(parts.timestamp));
    if (!(skew <= MAX_CLOCK_SKEW_SECONDS)) throw new SimError(401, 'SIGN_ERROR', '时间戳已过期');
    if (!requestSignatureValid(parts, { method: req.method ?? 'GET', uri, body }, merchant.publicKey)) {
      throw new SimError(401, 'SIGN_ERROR', '签名错误');
    }
  }

  function parse<T>(schema: z.ZodType<T>, body: string): T {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      throw new SimError(400, 'PARAM_ERROR', '请求体不是 JSON');
    }
    const r = schema.safeParse(value);
    if (!r.success) throw new SimError(400, 'PARAM_ERROR', r.error.issues[0]?.message ?? '参数错误');
    return r.data;
  }

  function v3(method: string, url: URL, body: string): Answer {
    const path = url.pathname;
    if (method === 'POST' && path === '/v3/pay/transactions/native') {
      const req = parse(nativeBody, body);
      if (req.mchid !== merchant.mchid) throw new SimError(400, 'MCH_NOT_EXISTS', '商户号不存在');
      if (req.appid !== merchant.appid) throw new SimError(400, 'APPID_MCHID_NOT_MATCH', 'AppID和mch_id不匹配');
      return { status: 200, json: ledger.createNative(req, now()) };
    }
    const order = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)(\/close)?$/.exec(path);
    if (order && method === 'GET' && !order[2]) {
      if (url.searchParams.get('mchid') !== merchant.mchid) throw new SimError(400, 'PARAM_ERROR', 'mchid 有误');
      return { status: 200, json: transactionJson(ledger.order(decodeURIComponent(order[1] ?? ''), now())) };
    }
    if (order && method === 'POST' && order[2]) {
      if (parse(closeBody, body).mchid !== merchant.mchid) throw new SimError(400, 'PARAM_ERROR', 'mchid 有误');
      ledger.close(decodeURIComponent(order[1] ?? ''), now());
      return { status: 204 };
    }
    if (method === 'POST' && path === '/v3/refund/domestic/refunds') {
      const req = parse(refundBody, body);
      if (!req.out_trade_no && !req.transaction_id) throw new SimError(400, 'PARAM_ERROR', '须填订单号');
      const fresh = !ledgerHasRefund(req.out_refund_no);
      const refund = ledger.refund(req, now());
      if (fresh && refundDelayMs === 0) {
        ledger.settleRefund(refund.outRefundNo, now());
        if (refund.notifyUrl) notifier.later(0, () => notifier.send(refundNotice(refund.outRefundNo)));
      } else if (fresh) {
        settling.set(
          refund.outRefundNo,
          notifier.later(refundDelayMs, () => settle(refund.outRefundNo)),
        );
      }
      return { status: 200, json: refundJson(refund) };
    }
    if (method === 'GET' && path === '/v3/certificates') {
      // 下载平台证书: the platform certificate, encrypted with the APIv3 key as WeChat Pay sends it.
      const { original_type: _type, ...encrypted } = encryptResource(platform.pem, o.apiV3Key, 'certificate');
      const valid = new X509Certificate(platform.pem);
      return {
        status: 200,
        json: {
          data: [
            {
              serial_no: platform.serial,
              effective_time: rfc3339China(new Date(valid.validFrom)),
              expire_time: rfc3339China(new Date(valid.validTo)),
              encrypt_certificate: encrypted,
            },
          ],
        },
      };
    }
    const refund = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(path);
    if (refund && method === 'GET') {
      return { status: 200, json: refundJson(ledger.refundOf(decodeURIComponent(refund[1] ?? ''))) };
    }
    throw new SimError(404, 'NOT_FOUND', '接口不存在');
  }

  function ledgerHasRefund(outRefundNo: string): boolean {
    try {
      ledger.refundOf(outRefundNo);
      return true;
    } catch {
      return false;
    }
  }

  async function simPage(method: string, url: URL, body: string, contentType: string): Promise<Answer> {
    if (method === 'GET' && url.pathname === '/sim/scan') {
      const codeUrl = url.searchParams.get('code_url') ?? '';
      return { status: 200, html: scanPage(ledger.orderByCodeUrl(codeUrl), codeUrl) };
    }
    if (method === 'POST' && url.pathname === '/sim/pay') {
      // JSON (scripts, bench/billing) may ask the notification delivered up to 10 times at once.
      const { code_url: codeUrl, times } = contentType.includes('application/json')
        ? parse(z.object({ code_url: z.string(), times: z.number().int().min(1).max(10).optional() }), body || '{}')
        : { code_url: new URLSearchParams(body).get('code_url') ?? '', times: undefined };
      const order = ledger.orderByCodeUrl(codeUrl);
      if (!order) return { status: 404, html: errorPage('未找到订单 · Unknown order') };
      try {
        await payOrder(order, times);
      } catch (err) {
        return { status: 400, html: errorPage(err instanceof Error ? err.message : String(err)) };
      }
      return { status: 200, html: paidPage(order) };
    }
    throw new SimError(404, 'NOT_FOUND', '页面不存在');
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 65536) chunks.push(c);
    });
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const method = req.method ?? 'GET';
        const uri = req.url ?? '/';
        const url = new URL(uri, 'http://127.0.0.1');
        let answer: Answer;
        try {
          if (size > 65536) throw new SimError(400, 'PARAM_ERROR', '请求体过大');
          if (url.pathname.startsWith('/v3/')) {
            authenticate(req, uri, body);
            answer = v3(method, url, body);
          } else {
            answer = await simPage(method, url, body, req.headers['content-type'] ?? '');
          }
        } catch (err) {
          const e = err instanceof SimError ? err : new SimError(500, 'SYSTEM_ERROR', String(err));
          answer = { status: e.status, json: { code: e.code, message: e.message } };
        }
        if (answer.html !== undefined) {
          res.writeHead(answer.status, { 'Content-Type': 'text/html; charset=utf-8' }).end(answer.html);
          return;
        }
        const text = answer.json === undefined ? '' : JSON.stringify(answer.json);
        res.writeHead(answer.status, {
          ...signedHeaders(key, text, freshSignedAt(now())),
          'Request-ID': randomUUID(),
          ...(text ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
        });
        res.end(text);
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const orderOf = (ref: string) =>
    ledger.orderByCodeUrl(ref) ??
    (() => {
      try {
        return ledger.order(ref, now());
      } catch {
        return undefined;
      }
    })();

  return {
    baseUrl,
    platformSerial: platform.serial,
    platformCertificatePem: platform.pem,
    deliveries: notifier.deliveries,
    scanUrl: (codeUrl) => `${baseUrl}/sim/scan?code_url=${encodeURIComponent(codeUrl)}`,
    async pay(ref) {
      const order = orderOf(ref);
      if (!order) throw new Error(`the simulator has no order ${ref}`);
      return payOrder(order);
    },
    async notifyTransaction(outTradeNo, opts) {
      const order = ledger.order(outTradeNo, now());
      if (order.transactionId === undefined) throw new Error(`order ${outTradeNo} is not paid`);
      return notifier.send(transactionNotice(order), opts);
    },
    settleRefund: async (outRefundNo, status) => settle(outRefundNo, status),
    notifyRefund: async (outRefundNo, opts) => notifier.send(refundNotice(outRefundNo), opts),
    order: orderOf,
    setRefundDelayMs(ms) {
      refundDelayMs = ms;
    },
    setNotifyOrigin(origin) {
      if (origin !== undefined && !isLoopbackUrl(origin)) {
        throw new Error('the simulator notifies loopback origins only');
      }
      notifier.notifyOrigin = origin;
    },
    whenIdle: () => notifier.whenIdle(),
    async close() {
      await notifier.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
