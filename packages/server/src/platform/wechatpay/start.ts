import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { WechatPaySimulator } from '../../sim/wechatpay/simulator.js';
import { createWechatPayClient } from './client.js';
import type { WechatPayProvider } from './provider.js';
import type { WechatPaySettings } from './settings.js';
import { platformKeysFromCertificates } from './signature.js';

export interface WechatPayRuntime {
  /** null when YYP_WECHATPAY=off: the weixin channel is not offered */
  provider: WechatPayProvider | null;
  /** with YYP_WECHATPAY=sim: the loopback simulator the provider talks to (its scan page, test hooks) */
  simulator: WechatPaySimulator | undefined;
  close(): Promise<void>;
}

export interface StartOptions {
  now?: () => Date;
  /** simulator only: refund delay (default the settings'), notification retries (default [1000, 5000]) */
  refundDelayMs?: number;
  retryDelaysMs?: number[];
}

function readFile(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, {
      cause: err,
    });
  }
}

/** The adapter for the live API (null when off); the simulator's is made by startWechatPay. */
export function createWechatPayProvider(
  settings: WechatPaySettings,
  opts: { now?: () => Date } = {},
): WechatPayProvider | null {
  if (settings.mode === 'off') return null;
  const live = settings.live;
  if (settings.mode === 'sim' || !live) {
    throw new Error('YYP_WECHATPAY=sim: use startWechatPay, which starts the simulator');
  }
  const platformKeys = platformKeysFromCertificates(
    live.platformCertFiles.map((f) => readFile(f, 'WECHATPAY_PLATFORM_CERT_FILE')),
    opts.now?.() ?? new Date(),
  );
  if (live.publicKeyFile && live.publicKeyId) {
    platformKeys.set(live.publicKeyId, createPublicKey(readFile(live.publicKeyFile, 'WECHATPAY_PUBLIC_KEY_FILE')));
  }
  if (platformKeys.size === 0) {
    throw new Error('WECHATPAY_PLATFORM_CERT_FILE: no platform certificate is valid now (download the current one)');
  }
  return createWechatPayClient({
    baseUrl: live.baseUrl,
    mchid: live.mchid,
    appid: live.appid,
    merchant: {
      serial: live.merchantSerial,
      privateKey: createPrivateKey(readFile(live.privateKeyFile, 'WECHATPAY_PRIVATE_KEY_FILE')),
    },
    apiV3Key: live.apiV3Key,
    platformKeys,
    now: opts.now,
  });
}

/**
 * The WeChat Pay channel as configured: nothing (off), the live adapter, or the simulator started
 * in-process on 127.0.0.1 with a merchant made up for it (a fresh key pair, serial and APIv3 key)
 * and the adapter pointed at it, trusting the simulator's platform certificate exactly as live
 * trusts WeChat Pay's.
 */
export async function startWechatPay(settings: WechatPaySettings, opts: StartOptions = {}): Promise<WechatPayRuntime> {
  if (settings.mode !== 'sim') {
    return { provider: createWechatPayProvider(settings, opts), simulator: undefined, close: async () => {} };
  }
  // Loaded only for the simulator: a live server carries none of it.
  const { startWechatPaySimulator } = await import('../../sim/wechatpay/simulator.js');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const merchant = {
    mchid: '1900000109',
    appid: 'wxd678efh567hg6787',
    serial: randomBytes(20).toString('hex').toUpperCase(),
  };
  const apiV3Key = randomBytes(24).toString('base64url'); // 32 characters
  const simulator = await startWechatPaySimulator({
    merchant: { ...merchant, publicKey },
    apiV3Key,
    refundDelayMs: opts.refundDelayMs ?? settings.simRefundDelayMs,
    retryDelaysMs: opts.retryDelaysMs,
    now: opts.now,
  });
  const provider = createWechatPayClient({
    baseUrl: simulator.baseUrl,
    mchid: merchant.mchid,
    appid: merchant.appid,
    merchant: { serial: merchant.serial, privateKey },
    apiV3Key,
    platformKeys: platformKeysFromCertificates([simulator.platformCertificatePem]),
    now: opts.now,
  });
  return { provider, simulator, close: () => simulator.close() };
}
