import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signRpc } from '../../platform/sms/signature.js';

/**
 * A local simulator of Alibaba Cloud SMS's SendSms API (Dysmsapi 2017-05-25) for the demo and
 * the tests (docs/sms.md): it checks a request as the service does — the AccessKey, the RPC
 * signature, the timestamp's window, a nonce used once, the signature name, the template and its
 * `code`, the number — applies the service's default flow control for verification codes (per
 * number: 1 a minute, 5 an hour, 10 a day), and answers in the service's shapes and codes. What
 * it accepts lands in an inbox (/inbox for people, /inbox.json?phone= for tests).
 */
export interface SmsSimulatorOptions {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  /** template code → its text, with ${code} where the code goes */
  templates: Record<string, string>;
  now?: () => Date;
  /** 0 (default): any free port on 127.0.0.1 */
  port?: number;
}

export interface ReceivedSms {
  phone: string;
  signName: string;
  templateCode: string;
  code: string;
  /** the message as the phone shows it: 【sign name】text */
  text: string;
  at: string;
  bizId: string;
}

export interface SmsSimulator {
  url: string;
  inboxUrl: string;
  /** the accepted messages, newest first (of one number, or all) */
  messages(phone?: string): ReceivedSms[];
  /** the code of the newest message to a number */
  lastCode(phone: string): string | undefined;
  /** forgets the flow control's counts (tests) */
  resetLimits(): void;
  close(): Promise<void>;
}

const TIMESTAMP_WINDOW_MS = 15 * 60_000;
/** The service's default flow control of verification codes per number. */
const FLOW_LIMITS = [
  { windowMs: 60_000, max: 1, message: '触发分钟级流控Permits:1' },
  { windowMs: 3_600_000, max: 5, message: '触发小时级流控Permits:5' },
  { windowMs: 86_400_000, max: 10, message: '触发天级流控Permits:10' },
];
const COMMON = [
  'AccessKeyId',
  'Action',
  'Format',
  'SignatureMethod',
  'SignatureNonce',
  'SignatureVersion',
  'Timestamp',
  'Version',
];

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
  ) {}
}

export async function startSmsSimulator(options: SmsSimulatorOptions): Promise<SmsSimulator> {
  const now = options.now ?? (() => new Date());
  const inbox: ReceivedSms[] = [];
  const nonces = new Map<string, number>();
  let sentAt = new Map<string, number[]>();

  function check(params: Record<string, string>, method: 'GET' | 'POST'): ReceivedSms {
    for (const name of [...COMMON, 'Signature']) {
      if (!params[name]) throw new Refusal(400, `Missing${name}`, `${name} is mandatory for this action.`);
    }
    if (params.Action !== 'SendSms') {
      throw new Refusal(404, 'InvalidAction.NotFound', 'Specified api is not found, please check your url and method.');
    }
    if (params.Version !== '2017-05-25') {
      throw new Refusal(400, 'InvalidVersion', 'Specified parameter Version is not valid.');
    }
    if (params.SignatureMethod !== 'HMAC-SHA1' || params.SignatureVersion !== '1.0') {
      throw new Refusal(400, 'InvalidSignatureMethod', 'Specified signature method is not supported.');
    }
    if (params.AccessKeyId !== options.accessKeyId) {
      throw new Refusal(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
    }
    const stamp = params.Timestamp!;
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(stamp)) {
      throw new Refusal(400, 'InvalidTimeStamp.Format', 'Specified time stamp or date value is not well formatted.');
    }
    const t = now().getTime();
    if (Math.abs(Date.parse(stamp) - t) > TIMESTAMP_WINDOW_MS) {
      throw new Refusal(400, 'InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.');
    }
    const { Signature: signature, ...signed } = params;
    if (signRpc(signed, options.accessKeySecret, method) !== signature) {
      throw new Refusal(400, 'SignatureDoesNotMatch', 'Specified signature is not matched with our calculation.');
    }
    for (const [nonce, at] of nonces) if (t - at > TIMESTAMP_WINDOW_MS) nonces.delete(nonce);
    if (nonces.has(params.SignatureNonce!)) {
      throw new Refusal(400, 'SignatureNonceUsed', 'Specified signature nonce was used already.');
    }
    nonces.set(params.SignatureNonce!, t);

    // The business checks answer HTTP 200 with the service's isv.* codes.
    for (const name of ['PhoneNumbers', 'SignName', 'TemplateCode']) {
      if (!params[name]) throw new Refusal(400, `Missing${name}`, `${name} is mandatory for this action.`);
    }
    if (params.SignName !== options.signName) {
      throw new Refusal(200, 'isv.SMS_SIGNATURE_ILLEGAL', '该账号下找不到对应签名');
    }
    const text = options.templates[params.TemplateCode!];
    if (text === undefined) throw new Refusal(200, 'isv.SMS_TEMPLATE_ILLEGAL', '该账号下找不到对应模板');
    let templateParam: unknown;
    try {
      templateParam = JSON.parse(params.TemplateParam ?? '');
    } catch {
      throw new Refusal(200, 'isv.INVALID_JSON_PARAM', 'JSON参数不合法，只接受字符串值');
    }
    const code = (templateParam as { code?: unknown } | null)?.code;
    if (typeof code !== 'string' || code === '') {
      throw new Refusal(200, 'isv.TEMPLATE_MISSING_PARAMETERS', '模板缺少变量');
    }
    const phone = params.PhoneNumbers!;
    const mainland = /^1[0-9]{10}$/.test(phone);
    const international = /^[1-9][0-9]{7,14}$/.test(phone) && !phone.startsWith('86');
    if (phone.includes(',') || !(mainland || international)) {
      throw new Refusal(200, 'isv.MOBILE_NUMBER_ILLEGAL', '非法手机号');
    }
    const times = (sentAt.get(phone) ?? []).filter((at) => t - at < 86_400_000);
    for (const limit of FLOW_LIMITS) {
      if (times.filter((at) => t - at < limit.windowMs).length >= limit.max) {
        throw new Refusal(200, 'isv.BUSINESS_LIMIT_CONTROL', limit.message);
      }
    }
    sentAt.set(phone, [...times, t]);
    return {
      phone,
      signName: options.signName,
      templateCode: params.TemplateCode!,
      code,
      text: `【${options.signName}】${text.replaceAll('${code}', code)}`,
      at: new Date(t).toISOString(),
      bizId: `${Math.floor(t / 1000)}${randomUUID().slice(0, 8)}^0`,
    };
  }

  async function readBody(req: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > 64 * 1024) throw new Refusal(413, 'RequestTooLarge', 'The request is too large.');
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  const send = (res: http.ServerResponse, status: number, body: unknown, type = 'application/json;charset=utf-8') => {
    res.writeHead(status, { 'content-type': type });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

  function inboxPage(phone: string | null): string {
    const rows = (phone ? inbox.filter((m) => m.phone === phone) : inbox)
      .map(
        (m) =>
          `<tr><td>${escapeHtml(m.at)}</td><td>${escapeHtml(m.phone)}</td><td>${escapeHtml(m.text)}</td><td><b>${escapeHtml(m.code)}</b></td></tr>`,
      )
      .join('');
    return `<!doctype html><meta charset="utf-8"><title>SMS simulator inbox</title>
<style>body{font:14px system-ui;margin:24px}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}</style>
<h1>SMS simulator inbox</h1><p>Messages the local simulator of Alibaba Cloud SMS accepted, newest first. Nothing here left this machine.</p>
<table><tr><th>Time (UTC)</th><th>Number</th><th>Message</th><th>Code</th></tr>${rows || '<tr><td colspan="4">No messages yet.</td></tr>'}</table>`;
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method === 'GET' && (url.pathname === '/inbox' || url.pathname === '/inbox.json')) {
        const phone = url.searchParams.get('phone');
        if (url.pathname === '/inbox') return send(res, 200, inboxPage(phone), 'text/html;charset=utf-8');
        return send(res, 200, phone ? inbox.filter((m) => m.phone === phone) : inbox);
      }
      const requestId = randomUUID().toUpperCase();
      if (url.pathname !== '/' || (req.method !== 'GET' && req.method !== 'POST')) {
        return send(res, 404, {
          RequestId: requestId,
          Code: 'InvalidAction.NotFound',
          Message: 'Specified api is not found, please check your url and method.',
        });
      }
      try {
        const raw = req.method === 'POST' ? await readBody(req) : url.search.slice(1);
        const params = Object.fromEntries(new URLSearchParams(raw));
        const message = check(params, req.method);
        inbox.unshift(message);
        send(res, 200, { Message: 'OK', RequestId: requestId, BizId: message.bizId, Code: 'OK' });
      } catch (err) {
        if (!(err instanceof Refusal)) {
          return send(res, 500, {
            RequestId: requestId,
            Code: 'InternalError',
            Message: 'The request processing has failed due to some unknown error.',
          });
        }
        send(res, err.status, { RequestId: requestId, Code: err.code, Message: err.message });
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    inboxUrl: `${url}/inbox`,
    messages: (phone) => (phone === undefined ? [...inbox] : inbox.filter((m) => m.phone === phone)),
    lastCode: (phone) => inbox.find((m) => m.phone === phone)?.code,
    resetLimits: () => {
      sentAt = new Map();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
