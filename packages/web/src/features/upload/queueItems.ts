import type { UploadSummary } from '@yyp/contracts';
import type { UploadFailureKind } from './fileUploader';
import { baseName } from './pickedFiles';

/**
 * waiting → uploading → checking (the server has it; is it stored or skipped?) → done | skipped.
 * A file that could not be sent is failed; one the user stopped is cancelled. Both can be retried.
 */
export type FileStatus = 'waiting' | 'uploading' | 'checking' | 'done' | 'skipped' | 'failed' | 'cancelled';

export interface QueueItem {
  key: string;
  path: string;
  size: number;
  sent: number;
  status: FileStatus;
  /** Skipped: the server's reason code. */
  reason?: string;
  /** Failed: why. */
  failure?: UploadFailureKind;
  /** Order in which files reached the server, to match them with the skipped names in order. */
  arrival?: number;
}

export interface QueueSnapshot {
  items: readonly QueueItem[];
  /** The user stopped the upload; nothing new starts until a retry. */
  stopped: boolean;
}

/**
 * Which of the `candidates` (files that arrived, in order of arrival) were skipped. The server
 * names a skipped file by its base name only, so each name's skipped entries are matched, in
 * order, with the files of that name not already marked skipped.
 */
export function matchSkipped(
  items: readonly QueueItem[],
  candidates: readonly QueueItem[],
  skipped: UploadSummary['skipped'],
): Map<string, { status: 'done' | 'skipped'; reason?: string }> {
  const reasonsByName = new Map<string, string[]>();
  for (const entry of skipped) {
    reasonsByName.set(entry.name, [...(reasonsByName.get(entry.name) ?? []), entry.reason]);
  }
  const claimed = new Map<string, number>();
  for (const item of items) {
    if (item.status === 'skipped') {
      const name = baseName(item.path);
      claimed.set(name, (claimed.get(name) ?? 0) + 1);
    }
  }
  const outcome = new Map<string, { status: 'done' | 'skipped'; reason?: string }>();
  const ordered = [...candidates].sort((a, b) => (a.arrival ?? 0) - (b.arrival ?? 0));
  for (const item of ordered) {
    const name = baseName(item.path);
    const used = claimed.get(name) ?? 0;
    const reason = reasonsByName.get(name)?.[used];
    if (reason === undefined) {
      outcome.set(item.key, { status: 'done' });
    } else {
      claimed.set(name, used + 1);
      outcome.set(item.key, { status: 'skipped', reason });
    }
  }
  return outcome;
}

export interface QueueTotals {
  files: number;
  bytes: number;
  sentBytes: number;
  counts: Record<FileStatus, number>;
  /** Something is being sent or waits its turn. */
  active: boolean;
  /** Every file has reached the server (stored, skipped, or being checked). */
  allArrived: boolean;
}

export function queueTotals(snapshot: QueueSnapshot): QueueTotals {
  const counts: Record<FileStatus, number> = {
    waiting: 0,
    uploading: 0,
    checking: 0,
    done: 0,
    skipped: 0,
    failed: 0,
    cancelled: 0,
  };
  let bytes = 0;
  let sentBytes = 0;
  for (const item of snapshot.items) {
    counts[item.status] += 1;
    bytes += item.size;
    sentBytes += item.sent;
  }
  const files = snapshot.items.length;
  return {
    files,
    bytes,
    sentBytes,
    counts,
    active: counts.uploading > 0 || (counts.waiting > 0 && !snapshot.stopped),
    allArrived: files > 0 && counts.checking + counts.done + counts.skipped === files,
  };
}
