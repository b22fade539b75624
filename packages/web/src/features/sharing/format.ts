import { WEB_REPORT_QUERY_FIELDS } from '@yyp/contracts';

/** The link from an answer's page path, absolute so it can be pasted anywhere. */
export function absoluteUrl(path: string, origin = window.location.origin): string {
  return new URL(path, origin).toString();
}

/** The query a hospital system's /web link carries, exactly as sent (absent fields stay absent). */
export function webQuery(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of WEB_REPORT_QUERY_FIELDS) {
    const value = params.get(name);
    if (value !== null) {
      out[name] = value;
    }
  }
  return out;
}
