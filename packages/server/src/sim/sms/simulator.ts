import { randomInt, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signRpc, stringToSign } from '../../platform/sms/signature.js';

/**
 * A local simulator of Alibaba Cloud SMS's SendSms (Dysmsapi 2017-05-25) for the demo and the tests
 * (docs/sms.md). It checks a request as the service does — the RPC signature over GET's query or
 * POST's form, the AccessKey, the Timestamp's 15-minute window, a SignatureNonce used once, the sign
 * name, the template and its variables, the number — applies the service's default flow control of
 * verification codes, and answers with the service's HTTP statuses, shapes and codes. What it
 * accepts lands in an inbox: /inbox for people trying the demo, /inbox.json and messages() for tests.
 * It answers JSON whatever Format asks (the adapter asks JSON).
 */
export interface SmsSimulatorOptions {
  accessKeyId: string;
  accessKeySecret: string;
  /** the one approved sign name */
  signName: string;
  /** approved template codes → their text, with ${code} where the code goes (as Alibaba writes variables) */
  templates: Record<string, string>;
  now?: () => Date;
  /** its port on 127.0.0.1; 0 (default): any free one */
  port?: number;
}

export interface ReceivedSms {
  /** as the service holds it: the 11 mainland digits */
  phone: string;
  signName: string;
  templateCode: string;
  code: string;
  /** the message as the phone shows it: 【sign name】text */
  text: string;
  /** ISO 8601 */
  at: string;
  bizId: string;
}

export interface SmsSimulator {
  /** http://127.0.0.1:<port>: the adapter's endpoint */
  readonly url: string;
  /** the page listing the messages received */
  readonly inboxUrl: string;
  /** the messages accepted, newest first (to one number, or all) */
  messages(phone?: string): ReceivedSms[];
  /** the code of the newest message to a number */
  lastCode(phone: string): string | undefined;
  /** forgets the flow control's counts (tests) */
  resetLimits(): void;
  close(): Promise<void>;
}

/** The gateway refuses a Timestamp more than 15 minutes from its clock (InvalidTimeStamp.Expired). */
const TIMESTAMP_WINDOW_MS = 15 * 60_000;
/**
 * The default flow control of verification codes (help.aliyun.com/document_detail/2881383: "使用同一个
 * 签名，默认情况下对同一个手机号码发送验证码，最多支持1条/分钟，5条/小时，10条/天", the day being the
 * last 24 hours): counted per sign name and number, whatever the template.
 */
const FLOW_LIMITS = [
  { windowMs: 60_000, max: 1, message: '触发分钟级流控Permits:1' },
  { windowMs: 3_600_000, max: 5, message: '触发小时级流控Permits:5' },
  { windowMs: 86_400_000, max: 10, message: '触发天级流控Permits:10' },
];
/** SendSms takes up to 1000 numbers, comma-separated. */
const MAX_NUMBERS = 1000;
const COMMON = ['AccessKeyId', 'Action', 'SignatureMethod', 'SignatureNonce', 'SignatureVersion', 'Timestamp'];
const HOST_ID = 'dysmsapi.aliyuncs.com';

/**
 * A refusal. The gateway's (signature, key, time, nonce: HTTP 4xx) carry HostId and Recommend;
 * SendSms's own (isv.*) come with HTTP 200 and only Code, Message and RequestId, as the service sends them.
 */
class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
  ) {}
}

const gateway = (status: number, code: string, message: string) => new Refusal(status, code, message);
const isv = (code: string, message: string) => new Refusal(200, code, message);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A mainland number as the service takes it (11 digits; +86, 0086 or 86 before them allowed), else undefined. */
function mainlandNumber(value: string): string | undefined {
  return /^(?:\+86|0086|86)?(1\d{10})$/.exec(value.trim())?.[1];
}

function templateVariables(text: string): string[] {
  return [...text.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1] ?? '');
}

export async function startSmsSimulator(options: SmsSimulatorOptions): Promise<SmsSimulator> {
  for (const [code, text] of Object.entries(options.templates)) {
    if (!templateVariables(text).includes('code')) {
      throw new Error(`the simulator's templates are verification codes: ${code} lacks \${code}`);
    }
  }
  const now = options.now ?? (() => new Date());
  const inbox: ReceivedSms[] = [];
  /** nonce → until when it must be remembered (ms) */
  const nonces = new Map<string, number>();
  /** sign name and number → when codes were accepted (ms) */
  let sent = new Map<string, number[]>();

  /** The gateway's checks of every RPC request, in its order; a request passing them uses up its nonce. */
  function authenticate(params: Record<string, string>, method: 'GET' | 'POST', t: number): void {
    for (const name of [...COMMON, 'Signature']) {
      if (!params[name]) throw gateway(400, `Missing${name}`, `${name} is mandatory for this action.`);
    }
    if (params.Action !== 'SendSms') {
      throw gateway(404, 'InvalidAction.NotFound', 'Specified api is not found, please check your url and method.');
    }
    if (params.Version !== '2017-05-25') {
      throw gateway(400, 'InvalidVersion', 'Specified parameter Version is not valid.');
    }
    if (params.SignatureMethod !== 'HMAC-SHA1' || params.SignatureVersion !== '1.0') {
      throw gateway(400, 'IncompleteSignature', 'The request signature does not conform to Aliyun standards.');
    }
    if (params.AccessKeyId !== options.accessKeyId) {
      throw gateway(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
    }
    const stamp = params.Timestamp ?? '';
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(stamp) || Number.isNaN(Date.parse(stamp))) {
      throw gateway(400, 'InvalidTimeStamp.Format', 'Specified time stamp or date value is not well formatted.');
    }
    if (Math.abs(Date.parse(stamp) - t) > TIMESTAMP_WINDOW_MS) {
      throw gateway(400, 'InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.');
    }
    const { Signature: signature, ...signed } = params;
    if (signRpc(signed, options.accessKeySecret, method) !== signature) {
      throw gateway(
        400,
        'SignatureDoesNotMatch',
        `Specified signature is not matched with our calculation. server string to sign is:${stringToSign(method, signed)}`,
      );
    }
    // Checked once the signature verifies, so a forged request cannot use up someone's nonce. A nonce
    // is kept while its Timestamp would still pass: a replay after that fails on the Timestamp.
    for (const [nonce, until] of nonces) if (until < t) nonces.delete(nonce);
    const nonce = params.SignatureNonce ?? '';
    if (nonces.has(nonce)) throw gateway(400, 'SignatureNonceUsed', 'Specified signature nonce was used already.');
    nonces.set(nonce, Math.max(t, Date.parse(stamp)) + TIMESTAMP_WINDOW_MS);
  }

  /** SendSms itself: the messages it would send, or the service's isv.* refusal. */
  function sendSms(params: Record<string, string>, t: number): ReceivedSms[] {
    for (const name of ['PhoneNumbers', 'SignName', 'TemplateCode']) {
      if (!params[name]) throw gateway(400, `Missing${name}`, `${name} is mandatory for this action.`);
    }
    const given = (params.PhoneNumbers ?? '').split(',');
    if (given.length > MAX_NUMBERS) throw isv('isv.MOBILE_COUNT_OVER_LIMIT', '手机号码数量超过限制');
    const phones = given.map(mainlandNumber);
    if (phones.some((p) => p === undefined)) throw isv('isv.MOBILE_NUMBER_ILLEGAL', '非法手机号');
    if (params.SignName !== options.signName) throw isv('isv.SMS_SIGNATURE_ILLEGAL', '该账号下找不到对应签名');
    const template = options.templates[params.TemplateCode ?? ''];
    if (template === undefined) throw isv('isv.SMS_TEMPLATE_ILLEGAL', '该账号下找不到对应模板');
    let values: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(params.TemplateParam ?? '{}');
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      values = parsed as Record<string, unknown>;
    } catch {
      throw isv('isv.INVALID_JSON_PARAM', 'JSON参数不合法，只接受字符串值');
    }
    for (const name of templateVariables(template)) {
      const value = values[name];
      if (typeof value !== 'string' && typeof value !== 'number') {
        throw isv('isv.TEMPLATE_MISSING_PARAMETERS', '模板缺少变量');
      }
    }
    const text = `【${options.signName}】${template.replace(/\$\{(\w+)\}/g, (_, name: string) => String(values[name]))}`;
    const keys = (phones as string[]).map((phone) => `${options.signName}\n${phone}`);
    for (const key of keys) {
      const times = (sent.get(key) ?? []).filter((at) => t - at < 86_400_000);
      sent.set(key, times);
      const reached = FLOW_LIMITS.find((l) => times.filter((at) => t - at < l.windowMs).length >= l.max);
      if (reached) throw isv('isv.BUSINESS_LIMIT_CONTROL', reached.message);
    }
    for (const key of keys) sent.get(key)?.push(t);
    const bizId = `${t}${String(randomInt(100_000)).padStart(5, '0')}^0`;
    return (phones as string[]).map((phone) => ({
      phone,
      signName: options.signName,
      templateCode: params.TemplateCode ?? '',
      code: String(values.code),
      text,
      at: new Date(t).toISOString(),
      bizId,
    }));
  }

  async function readBody(req: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > 64 * 1024) throw gateway(413, 'RequestTooLarge', 'The request body is too large.');
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** The messages to a number (written as the adapter or a person may: +86… too), or all; newest first. */
  const received = (phone: string | null | undefined) => {
    if (phone === null || phone === undefined) return [...inbox];
    const wanted = mainlandNumber(phone) ?? phone.trim();
    return inbox.filter((m) => m.phone === wanted);
  };

  function inboxPage(phone: string | null): string {
    const rows = received(phone)
      .map(
        (m) =>
          `<tr><td>${escapeHtml(m.at.replace('T', ' ').slice(0, 19))}</td><td>${escapeHtml(m.phone)}</td>` +
          `<td>${escapeHtml(m.text)}</td><td><b>${escapeHtml(m.code)}</b></td></tr>`,
      )
      .join('');
    return `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><meta http-equiv="refresh" content="5">
<title>短信模拟器收件箱 · SMS simulator inbox</title>
<style>body{font:14px system-ui,sans-serif;margin:24px}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}</style>
<h1>短信模拟器收件箱 · SMS simulator inbox</h1>
<p>The messages the local simulator of Alibaba Cloud SMS accepted, newest first. None of them left this machine.</p>
<form method="get" action="/inbox"><label>手机号 · Number <input name="phone" value="${escapeHtml(phone ?? '')}"></label> <button>Filter</button></form>
<table><tr><th>Time (UTC)</th><th>Number</th><th>Message</th><th>Code</th></tr>${rows || '<tr><td colspan="4">No messages yet.</td></tr>'}</table></html>`;
  }

  function reply(res: http.ServerResponse, status: number, body: string, type: string): void {
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body);
  }
  const json = (res: http.ServerResponse, status: number, body: unknown) =>
    reply(res, status, JSON.stringify(body), 'application/json;charset=utf-8');

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = req.method ?? 'GET';
      if (method === 'GET' && url.pathname === '/inbox') {
        return reply(res, 200, inboxPage(url.searchParams.get('phone') || null), 'text/html;charset=utf-8');
      }
      if (method === 'GET' && url.pathname === '/inbox.json') {
        return json(res, 200, received(url.searchParams.get('phone') || null));
      }
      const requestId = randomUUID().toUpperCase();
      try {
        if (url.pathname !== '/' || (method !== 'GET' && method !== 'POST')) {
          throw gateway(404, 'InvalidAction.NotFound', 'Specified api is not found, please check your url and method.');
        }
        // The service takes the parameters in the query (GET) or the form body (POST), or both.
        const params = Object.fromEntries(url.searchParams);
        if (method === 'POST') Object.assign(params, Object.fromEntries(new URLSearchParams(await readBody(req))));
        const t = now().getTime();
        authenticate(params, method, t);
        const messages = sendSms(params, t);
        inbox.unshift(...messages);
        json(res, 200, { Message: 'OK', RequestId: requestId, BizId: messages[0]?.bizId ?? '', Code: 'OK' });
      } catch (err) {
        const e =
          err instanceof Refusal
            ? err
            : gateway(500, 'InternalError', 'The request processing has failed due to some unknown error.');
        json(
          res,
          e.status,
          e.status === 200
            ? { Message: e.message, RequestId: requestId, Code: e.code }
            : {
                RequestId: requestId,
                Message: e.message,
                Recommend: `https://api.aliyun.com/troubleshoot?q=${encodeURIComponent(e.code)}&product=Dysmsapi&requestId=${requestId}`,
                HostId: HOST_ID,
                Code: e.code,
              },
        );
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    inboxUrl: `${url}/inbox`,
    messages: (phone) => received(phone),
    lastCode: (phone) => received(phone)[0]?.code,
    resetLimits() {
      sent = new Map();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
