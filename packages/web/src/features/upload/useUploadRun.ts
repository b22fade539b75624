import { useMutation } from '@tanstack/react-query';
import type { UploadCorrection, UploadSession, UploadSummary } from '@yyp/contracts';
import { useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { completeUpload, fetchUploadSummary } from '../../api/uploads';
import { forgetPending, markPendingDone } from '../../shared/upload/pendingUploads';
import type { PickedFile } from './pickedFiles';
import { forgetSessionUploads } from './tusUploader';
import { UploaderContext } from './UploaderContext';
import { queueTotals } from './queueItems';
import { UploadQueue } from './uploadQueue';

function subscribeOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const isOffline = () => !navigator.onLine;

/**
 * One upload from the first file sent to the summary: the queue of files, the session they go
 * into, and closing it (POST exams/post-upload) once every file has arrived, or when the user
 * finishes with some files left out.
 */
export function useUploadRun() {
  const uploader = useContext(UploaderContext);
  const scopeRef = useRef<string | null>(null);
  const [queue] = useState(
    () =>
      new UploadQueue({
        uploader,
        fetchSummary: fetchUploadSummary,
        onArrived: (key) => {
          if (scopeRef.current) {
            markPendingDone(scopeRef.current, key);
          }
        },
      }),
  );
  const snapshot = useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot);
  const offline = useSyncExternalStore(subscribeOnline, isOffline, isOffline);
  const totals = useMemo(() => queueTotals(snapshot), [snapshot]);
  const [session, setSession] = useState<UploadSession | null>(null);
  const [summary, setSummary] = useState<UploadSummary | null>(null);
  const autoFinished = useRef<string | null>(null);
  /** The step-2 corrections of this upload, sent when it closes. */
  const correctionsRef = useRef<UploadCorrection | undefined>(undefined);
  const [hasCorrections, setHasCorrections] = useState(false);
  const completion = useMutation({
    mutationFn: (sessionToken: string) => completeUpload(sessionToken, correctionsRef.current),
  });
  const { mutateAsync: complete, reset: resetCompletion } = completion;

  useEffect(() => () => queue.dispose(), [queue]);

  useEffect(() => {
    const handleOnline = () => queue.retryNetworkFailures();
    window.addEventListener('online', handleOnline);
    return () => window.removeEventListener('online', handleOnline);
  }, [queue]);

  // A file dropped beside the drop zone would make the browser open it and leave the wizard.
  useEffect(() => {
    const keepPage = (event: Event) => event.preventDefault();
    window.addEventListener('dragover', keepPage);
    window.addEventListener('drop', keepPage);
    return () => {
      window.removeEventListener('dragover', keepPage);
      window.removeEventListener('drop', keepPage);
    };
  }, []);

  // Closing the tab while files are sent: the browser asks first (tus would resume them anyway).
  useEffect(() => {
    if (!totals.active) {
      return undefined;
    }
    const handleBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', handleBeforeUnload);
    return () => window.removeEventListener('beforeunload', handleBeforeUnload);
  }, [totals.active]);

  const begin = useCallback(
    (
      scope: string,
      next: UploadSession,
      files: readonly PickedFile[],
      arrived: ReadonlySet<string>,
      corrections?: UploadCorrection,
    ) => {
      scopeRef.current = scope;
      correctionsRef.current = corrections;
      setHasCorrections(corrections !== undefined);
      setSession(next);
      setSummary(null);
      resetCompletion();
      queue.start(next, files, arrived);
    },
    [queue, resetCompletion],
  );

  const finish = useCallback(async () => {
    if (!session) {
      return;
    }
    queue.cancel();
    try {
      const result = await complete(session.sessionToken);
      queue.settleWith(result);
      if (scopeRef.current) {
        forgetPending(scopeRef.current);
      }
      void forgetSessionUploads(session.uploadId);
      setSummary(result);
    } catch {
      // Shown from the mutation's error; the user may finish again.
    }
  }, [queue, session, complete]);

  /** Closes the upload leaving the exams as the files say (after the server refused the corrections). */
  const finishWithoutCorrections = useCallback(async () => {
    correctionsRef.current = undefined;
    setHasCorrections(false);
    await finish();
  }, [finish]);

  // Every file arrived: close the session and show the summary, once per session.
  useEffect(() => {
    if (session && totals.allArrived && !summary && autoFinished.current !== session.uploadId) {
      autoFinished.current = session.uploadId;
      void finish();
    }
  }, [session, totals.allArrived, summary, finish]);

  const reset = useCallback(() => {
    queue.clear();
    scopeRef.current = null;
    correctionsRef.current = undefined;
    setHasCorrections(false);
    setSession(null);
    setSummary(null);
    resetCompletion();
  }, [queue, resetCompletion]);

  return {
    items: snapshot.items,
    stopped: snapshot.stopped,
    totals,
    /** The browser says the connection is gone; files that failed for it resume when it is back. */
    offline,
    session,
    summary,
    finishing: completion.isPending,
    finishError: completion.error,
    begin,
    finish,
    /** step 2 corrections go with the closing call */
    hasCorrections,
    finishWithoutCorrections,
    reset,
    cancel: useCallback(() => queue.cancel(), [queue]),
    retry: useCallback((key: string) => queue.retry(key), [queue]),
    retryAll: useCallback(() => queue.retryAll(), [queue]),
  };
}

export type UploadRun = ReturnType<typeof useUploadRun>;
