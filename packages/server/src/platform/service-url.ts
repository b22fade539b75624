/**
 * The base URL of an outside service from the environment (WECHATPAY_BASE_URL, ALIYUN_SMS_ENDPOINT):
 * the variable or the service's default, without a trailing slash; https only, plain http only to
 * a simulator on this host, since the signed requests carry payments and codes.
 */
export function serviceBaseUrl(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = (env[name]?.trim() || fallback).replace(/\/+$/, '');
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(`${name} must be an https URL`);
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(loopback && parsed.protocol === 'http:')) {
    throw new Error(`${name} must be an https URL (http only on loopback)`);
  }
  return value;
}
