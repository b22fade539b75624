import type { UploadSession, UploadSummary } from '@yyp/contracts';
import { act } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { FileUploader, UploadCallbacks, UploadFailureKind, UploadRequest } from '../features/upload/fileUploader';
import { UploaderContext } from '../features/upload/UploaderContext';

export interface FakeTransfer {
  request: UploadRequest;
  callbacks: UploadCallbacks;
  aborted: boolean;
  /** Arrived or failed. */
  settled: boolean;
}

/**
 * Stands in for tus in component tests: records each file it is asked to send and lets the test
 * report progress, arrival or failure for it.
 */
export function fakeUploader() {
  const transfers: FakeTransfer[] = [];
  const uploader: FileUploader = (request, callbacks) => {
    const transfer: FakeTransfer = { request, callbacks, aborted: false, settled: false };
    transfers.push(transfer);
    return {
      abort: () => {
        transfer.aborted = true;
      },
    };
  };
  /** The latest transfer of the file sent under `name`. */
  const of = (name: string): FakeTransfer => {
    const found = transfers.filter((t) => t.request.name === name).pop();
    if (!found) {
      throw new Error(`${name} was not sent; sent: ${transfers.map((t) => t.request.name).join(', ')}`);
    }
    return found;
  };
  return {
    uploader,
    transfers,
    of,
    /** Names of the files being sent now. */
    running: () => transfers.filter((t) => !t.aborted && !t.settled).map((t) => t.request.name),
    progress: (name: string, sent: number) => act(() => of(name).callbacks.onProgress(sent)),
    arrive: (name: string) =>
      act(() => {
        const transfer = of(name);
        transfer.settled = true;
        transfer.callbacks.onSuccess();
      }),
    fail: (name: string, failure: UploadFailureKind = 'network') =>
      act(() => {
        const transfer = of(name);
        transfer.settled = true;
        transfer.callbacks.onError(failure);
      }),
    wrap: (app: ReactElement) => <UploaderContext.Provider value={uploader}>{app}</UploaderContext.Provider>,
  };
}

export function uploadSessionOf(overrides: Partial<UploadSession> = {}): UploadSession {
  return {
    uploadId: 'up1',
    sessionToken: 'session-token-1',
    endpoint: '/yyp/api/v1/uploads/files/',
    expires: Math.floor(Date.now() / 1000) + 24 * 3600,
    bucketName: 'Radiology',
    ...overrides,
  };
}

export function uploadSummaryOf(overrides: Partial<UploadSummary> = {}): UploadSummary {
  return { uploadId: 'up1', status: 'open', stored: 0, duplicates: 0, skipped: [], examIds: [], ...overrides };
}

/** A file of `size` bytes, optionally inside a folder (as a folder input gives it). */
export function fileOf(name: string, size: number, folderPath?: string): File {
  const file = new File([new Uint8Array(size)], name, { lastModified: 1_700_000_000_000 });
  if (folderPath) {
    Object.defineProperty(file, 'webkitRelativePath', { value: folderPath });
  }
  return file;
}
