import type { UploadSession, UploadSummary } from '@yyp/contracts';
import type { FileUploader, UploadHandle } from './fileUploader';
import type { PickedFile } from './pickedFiles';
import { matchSkipped, type QueueItem, type QueueSnapshot } from './queueItems';
import { uploadFingerprint } from './tusUploader';

export interface UploadQueueOptions {
  uploader: FileUploader;
  fetchSummary: (sessionToken: string) => Promise<UploadSummary>;
  /** A file arrived completely: remember it, so a reopened page does not send it again. */
  onArrived?: (key: string) => void;
  concurrency?: number;
}

/** Three files at a time: enough to fill a hospital uplink without starving the other tabs. */
export const UPLOAD_CONCURRENCY = 3;
const PROGRESS_EMIT_MS = 150;
const SUMMARY_RETRY_MS = 3000;

/**
 * The files of one upload session and their transfer: a few at a time, each with its progress;
 * after each arrival the session summary tells whether the file was stored or skipped.
 * Lives outside React (callbacks come from the uploader at any time); the page reads snapshots.
 */
export class UploadQueue {
  /** The working state; `snapshot` is what the page was last told (progress is batched). */
  private state: QueueSnapshot = { items: [], stopped: false };
  private snapshot: QueueSnapshot = this.state;
  private readonly listeners = new Set<() => void>();
  private readonly files = new Map<string, File>();
  /** One slot per file being sent; callbacks of a slot that was replaced or dropped are ignored. */
  private readonly transfers = new Map<string, { handle: UploadHandle | null }>();
  private session: UploadSession | null = null;
  private arrivals = 0;
  private checking = false;
  private checkAgain = false;
  private progressTimer: ReturnType<typeof setTimeout> | null = null;
  private summaryTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: UploadQueueOptions) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): QueueSnapshot => this.snapshot;

  /** Send `files` into `session`; those in `arrived` reached it before (a reopened page). */
  start(session: UploadSession, files: readonly PickedFile[], arrived: ReadonlySet<string> = new Set()): void {
    this.stopTransfers();
    this.session = session;
    this.files.clear();
    const items = files.map((picked): QueueItem => {
      this.files.set(picked.key, picked.file);
      const size = picked.file.size;
      return arrived.has(picked.key)
        ? { key: picked.key, path: picked.path, size, sent: size, status: 'checking', arrival: ++this.arrivals }
        : { key: picked.key, path: picked.path, size, sent: 0, status: 'waiting' };
    });
    this.set({ items, stopped: false });
    this.pump();
    if (items.some((item) => item.status === 'checking')) {
      void this.checkArrivals();
    }
  }

  /** Stop sending. Files that arrived stay stored; the others can continue with retry. */
  cancel(): void {
    this.stopTransfers();
    this.update(
      (item) => item.status === 'waiting' || item.status === 'uploading',
      () => ({ status: 'cancelled' }),
      { stopped: true },
    );
  }

  retry(key: string): void {
    this.requeue((item) => item.key === key);
  }

  /** Every failed or stopped file goes back into the queue. */
  retryAll(): void {
    this.requeue(() => true);
  }

  /** The connection is back: files that failed for want of it try again. */
  retryNetworkFailures(): void {
    if (!this.state.stopped) {
      this.requeue((item) => item.failure === 'network');
    }
  }

  /** Match still-unchecked arrivals with the session's final summary. */
  settleWith(summary: UploadSummary): void {
    const items = this.state.items;
    const outcome = matchSkipped(
      items,
      items.filter((item) => item.status === 'checking'),
      summary.skipped,
    );
    this.update(
      (item) => outcome.has(item.key),
      (item) => outcome.get(item.key) ?? {},
    );
  }

  /** Forget the files and the session (a new upload begins). */
  clear(): void {
    this.dispose();
    this.session = null;
    this.files.clear();
    this.set({ items: [], stopped: false });
  }

  /** Leaving the page: stop the transfers, which stay resumable. */
  dispose(): void {
    this.stopTransfers();
    if (this.summaryTimer) {
      clearTimeout(this.summaryTimer);
      this.summaryTimer = null;
    }
  }

  private stopTransfers(): void {
    for (const transfer of this.transfers.values()) {
      transfer.handle?.abort();
    }
    this.transfers.clear();
    if (this.progressTimer) {
      clearTimeout(this.progressTimer);
      this.progressTimer = null;
    }
  }

  private requeue(which: (item: QueueItem) => boolean): void {
    this.update(
      (item) => (item.status === 'failed' || item.status === 'cancelled') && which(item),
      () => ({ status: 'waiting', failure: undefined }),
      { stopped: false },
    );
    this.pump();
  }

  private pump(): void {
    const session = this.session;
    if (!session || this.state.stopped) {
      return;
    }
    const limit = this.options.concurrency ?? UPLOAD_CONCURRENCY;
    for (const item of this.state.items) {
      if (this.transfers.size >= limit) {
        break;
      }
      if (item.status === 'waiting') {
        this.launch(session, item);
      }
    }
  }

  private launch(session: UploadSession, item: QueueItem): void {
    const file = this.files.get(item.key);
    if (!file) {
      return;
    }
    const { key } = item;
    this.update(
      (i) => i.key === key,
      () => ({ status: 'uploading', sent: 0 }),
    );
    const transfer: { handle: UploadHandle | null } = { handle: null };
    this.transfers.set(key, transfer);
    const current = () => this.transfers.get(key) === transfer;
    transfer.handle = this.options.uploader(
      { file, name: item.path, session, fingerprint: uploadFingerprint(session.uploadId, key) },
      {
        onProgress: (sent) => {
          if (current()) {
            this.progress(key, sent);
          }
        },
        onSuccess: () => {
          if (!current()) {
            return;
          }
          this.transfers.delete(key);
          this.update(
            (i) => i.key === key,
            (i) => ({ status: 'checking', sent: i.size, arrival: ++this.arrivals }),
          );
          this.options.onArrived?.(key);
          void this.checkArrivals();
          this.pump();
        },
        onError: (failure) => {
          if (!current()) {
            return;
          }
          this.transfers.delete(key);
          this.update(
            (i) => i.key === key,
            () => ({ status: 'failed', failure }),
          );
          this.pump();
        },
      },
    );
  }

  /** Progress comes many times a second per file: the page is told at most every 150 ms. */
  private progress(key: string, sent: number): void {
    this.state = {
      ...this.state,
      items: this.state.items.map((item) => (item.key === key ? { ...item, sent: Math.min(sent, item.size) } : item)),
    };
    this.progressTimer ??= setTimeout(() => {
      this.progressTimer = null;
      this.emit();
    }, PROGRESS_EMIT_MS);
  }

  /**
   * Files reach the server stored or skipped before their last request is answered, so a summary
   * asked for afterwards knows them all. One summary at a time; arrivals meanwhile ask again.
   */
  private async checkArrivals(): Promise<void> {
    const session = this.session;
    if (!session) {
      return;
    }
    if (this.checking) {
      this.checkAgain = true;
      return;
    }
    this.checking = true;
    try {
      do {
        this.checkAgain = false;
        const asked = this.state.items.filter((item) => item.status === 'checking');
        if (asked.length === 0) {
          break;
        }
        const summary = await this.options.fetchSummary(session.sessionToken);
        if (this.session !== session) {
          return;
        }
        const outcome = matchSkipped(this.state.items, asked, summary.skipped);
        this.update(
          (item) => item.status === 'checking' && outcome.has(item.key),
          (item) => outcome.get(item.key) ?? {},
        );
      } while (this.checkAgain);
    } catch {
      // The summary could not be read: ask again shortly; the final summary settles it anyway.
      this.summaryTimer = setTimeout(() => {
        this.summaryTimer = null;
        void this.checkArrivals();
      }, SUMMARY_RETRY_MS);
    } finally {
      this.checking = false;
      if (this.checkAgain && !this.summaryTimer) {
        void this.checkArrivals();
      }
    }
  }

  private update(
    which: (item: QueueItem) => boolean,
    patch: (item: QueueItem) => Partial<QueueItem>,
    extra: Partial<QueueSnapshot> = {},
  ): void {
    this.set({
      ...this.state,
      ...extra,
      items: this.state.items.map((item) => (which(item) ? { ...item, ...patch(item) } : item)),
    });
  }

  private set(next: QueueSnapshot): void {
    this.state = next;
    this.emit();
  }

  private emit(): void {
    this.snapshot = this.state;
    for (const listener of this.listeners) {
      listener();
    }
  }
}
