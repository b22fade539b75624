import { loggableError } from './platform/http.js';

/**
 * What the CLI prints when a command fails. A database error is printed as the log keeps it
 * (platform/http.ts loggableError): its SQLSTATE, the names it involves and its message with
 * quoted values left out, never drizzle's "Failed query … params: …", which repeats the values
 * sent (patient names, report text). A failed query without a database error (a lost
 * connection) prints its cause only. Other errors print their message.
 */
export function failureMessage(err: unknown): string {
  const safe = loggableError(err);
  if (safe !== err) {
    const e = safe as Record<string, unknown>;
    const names = ['table', 'column', 'constraint']
      .filter((field) => typeof e[field] === 'string')
      .map((field) => `${field} ${String(e[field])}`);
    return [`database error ${String(e.code)}: ${String(e.message)}`, ...names].join(', ');
  }
  if (err instanceof Error && err.message.startsWith('Failed query:')) {
    return `database query failed${err.cause instanceof Error ? `: ${err.cause.message}` : ''}`;
  }
  return err instanceof Error ? err.message : String(err);
}
