import type { UploadSession } from '@yyp/contracts';
import { nowSeconds } from '../../api/sessionStore';
import { fetchUploadSummary } from '../../api/uploads';

/**
 * Upload sessions that started but were not finished, kept in this browser so that reopening the
 * page continues the same session: files already sent are not sent again, and tus resumes the
 * unfinished ones (their fingerprints name the session). Dropped when the session is finished.
 */
export interface PendingUpload {
  scope: string;
  session: UploadSession;
  /** The organization, for a signed-in upload; a link upload has its organization in the token. */
  bucketId: string | null;
  /** Keys (PickedFile.key) of the files the server has received completely. */
  doneKeys: string[];
}

const STORAGE_KEY = 'yyp.upload.pending';
/** A session about to expire is not worth resuming: the rest of the files would be refused. */
const MIN_REMAINING_SECONDS = 10 * 60;

export const accountScope = (username: string, bucketId: string) => `account:${username}:${bucketId}`;
export const linkScope = (token: string) => `link:${token}`;

function readAll(): Record<string, PendingUpload> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, PendingUpload>) : {};
  } catch {
    return {};
  }
}

function writeAll(all: Record<string, PendingUpload>): void {
  try {
    if (Object.keys(all).length === 0) {
      localStorage.removeItem(STORAGE_KEY);
    } else {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(all));
    }
  } catch {
    // Storage unavailable: the upload still works, it just cannot be continued after a reload.
  }
}

function usable(pending: PendingUpload | undefined): pending is PendingUpload {
  return (
    Boolean(pending?.session?.sessionToken) && (pending?.session.expires ?? 0) - nowSeconds() > MIN_REMAINING_SECONDS
  );
}

export function readPending(scope: string): PendingUpload | null {
  const pending = readAll()[scope];
  return usable(pending) ? pending : null;
}

/** The unfinished upload of this user, whichever organization it was for. */
export function findAccountPending(username: string): PendingUpload | null {
  const prefix = `account:${username}:`;
  return Object.values(readAll()).find((p) => p.scope.startsWith(prefix) && usable(p)) ?? null;
}

export function savePending(pending: PendingUpload): void {
  writeAll({ ...readAll(), [pending.scope]: pending });
}

export function markPendingDone(scope: string, key: string): void {
  const all = readAll();
  const pending = all[scope];
  if (pending && !pending.doneKeys.includes(key)) {
    writeAll({ ...all, [scope]: { ...pending, doneKeys: [...pending.doneKeys, key] } });
  }
}

export function forgetPending(scope: string): void {
  const { [scope]: _dropped, ...rest } = readAll();
  writeAll(rest);
}

/** Logout clears all state (spec 000 §4), including the signed-in user's unfinished uploads. */
export function forgetAccountPending(): void {
  writeAll(Object.fromEntries(Object.entries(readAll()).filter(([scope]) => !scope.startsWith('account:'))));
}

/**
 * The session to send into: the unfinished one of this scope if the server still has it open,
 * otherwise a new one from `openNew`. Answers the keys of the files that already arrived.
 */
export async function resumeOrOpen(
  scope: string,
  bucketId: string | null,
  openNew: () => Promise<UploadSession>,
): Promise<{ session: UploadSession; arrived: Set<string> }> {
  const pending = readPending(scope);
  if (pending) {
    const open = await fetchUploadSummary(pending.session.sessionToken).then(
      (summary) => summary.status === 'open',
      () => false,
    );
    if (open) {
      return { session: pending.session, arrived: new Set(pending.doneKeys) };
    }
    forgetPending(scope);
  }
  const session = await openNew();
  savePending({ scope, session, bucketId, doneKeys: [] });
  return { session, arrived: new Set() };
}
