import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  REPORT_AUTOSAVE_MS,
  REPORT_HEARTBEAT_MS,
  isEditable,
  reportConflictDetailsSchema,
  type Report,
  type ReportAction,
  type ReportConflictDetails,
  type ReportContent,
  type ReportState,
} from '@yyp/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { hasCode, isApiError } from '../../api/errors';
import {
  fetchReport,
  forceUnlockReport,
  lockReport,
  resetReport,
  runReportAction,
  syncReport,
  unlockReport,
  unlockReportOnExit,
} from '../../api/reports';
import { CONTENT_ACTIONS } from './actionButtons';
import { edit, initialDraft, isDirty, keepMine, receiveServer, savedAs, takeTheirs, type DraftState } from './draft';

export const reportKeys = {
  all: ['reports'] as const,
  detail: (reportId: string) => ['reports', reportId, 'detail'] as const,
  images: (reportId: string) => ['reports', reportId, 'images'] as const,
  trace: (reportId: string) => ['reports', reportId, 'trace'] as const,
  worklist: (reportId: string) => ['reports', reportId, 'worklist'] as const,
};

/**
 * The edit lock as this editor sees it: not asked for yet (reading: opening takes no lock), being
 * taken (the first edit), held, refused or lost (another user holds it), or given back by the user
 * (unlock).
 */
export type LockPhase = 'idle' | 'taking' | 'held' | 'refused' | 'lost' | 'released';

export interface ActionExtra {
  reason?: string;
  expertIds?: string[];
}

/** While another user holds the lock, look again this often to see whether it was freed. */
const LOCKED_POLL_MS = 15_000;

/**
 * The report editor's state: the report as the server last answered it, the text on screen
 * (draft.ts), the edit lock with its heartbeat, autosave, and the actions. Writes go one at a
 * time, each carrying the version its text was based on.
 *
 * Opening a report is reading it (issue 20 item 5): no lock is asked for until the first edit (a
 * change of the text, or startEditing for an explicit Edit). The lock is given back when the editor
 * closes (unmount, route change, tab closed) or lapses on the server when the heartbeat stops.
 */
export function useReportEditor(reportId: string, onAutosaveError: (error: unknown) => void) {
  const queryClient = useQueryClient();
  const [lockPhase, setLockPhase] = useState<LockPhase>('idle');
  const [lockHolder, setLockHolder] = useState<string | null>(null);
  const [draftState, setDraftState] = useState<DraftState | null>(null);
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  const [saving, setSaving] = useState(false);
  const [pending, setPending] = useState<ReportAction | 'unlock' | 'reset' | 'forceUnlock' | null>(null);
  const [conflict, setConflict] = useState<ReportConflictDetails | null>(null);

  const detail = useQuery({
    queryKey: reportKeys.detail(reportId),
    queryFn: ({ signal }) => fetchReport(reportId, signal),
    staleTime: 0,
    // Back from another window (the viewer, another report): show what others did meanwhile.
    refetchOnWindowFocus: true,
    // While someone else holds the lock, look now and then whether it was freed.
    refetchInterval: (query) => {
      const lock = query.state.data?.lock;
      return (lock && !lock.mine) || lockPhase === 'refused' ? LOCKED_POLL_MS : false;
    },
  });
  const report = detail.data;

  // Latest values for timers and queued writes, which outlive the render that created them. The
  // draft changes only through updateDraft, so the ref is never behind what the next render shows.
  const draftRef = useRef<DraftState | null>(null);
  const updateDraft = useCallback((next: (d: DraftState | null) => DraftState | null) => {
    draftRef.current = next(draftRef.current);
    setDraftState(draftRef.current);
  }, []);
  const phaseRef = useRef(lockPhase);
  phaseRef.current = lockPhase;
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const locking = useRef<Promise<boolean> | null>(null);
  const refusedAt = useRef(0);
  const mounted = useRef(true);
  // The text as it was before the edits typed while the lock was being taken (put back if refused).
  const beforeEdit = useRef<DraftState | null>(null);

  const setReport = useCallback(
    (next: Report) => queryClient.setQueryData<Report>(reportKeys.detail(reportId), next),
    [queryClient, reportId],
  );
  const mergeState = useCallback(
    (state: Partial<Report> & ReportState) =>
      queryClient.setQueryData<Report>(reportKeys.detail(reportId), (old) => (old ? { ...old, ...state } : old)),
    [queryClient, reportId],
  );

  // Every report the server sends meets the text on screen (draft.ts decides who wins).
  useEffect(() => {
    if (report) {
      updateDraft((d) =>
        d ? receiveServer(d, report.content, report.version) : initialDraft(report.content, report.version),
      );
    }
  }, [report, updateDraft]);

  const editable = report ? isEditable(report.transitions) : false;
  const lockedByOther = report?.lock && !report.lock.mine ? report.lock.lockedBy.name : null;

  const loseLock = useCallback((name: string | null) => {
    setLockHolder(name);
    setLockPhase('lost');
  }, []);

  // An action that hands the report on frees the lock; a refused lock shown free again may be tried.
  useEffect(() => {
    if (!report) {
      return;
    }
    if (!editable) {
      if (lockPhase === 'held' || lockPhase === 'refused') {
        setLockPhase('idle');
      }
      return;
    }
    // Refused, and the lock shows free again: the next edit may try again, but no sooner than the
    // next poll, so a report whose lock flickers is not hammered.
    if (
      lockPhase === 'refused' &&
      !lockedByOther &&
      detail.dataUpdatedAt - refusedAt.current >= LOCKED_POLL_MS - 1000
    ) {
      setLockPhase('idle');
    }
  }, [report, editable, lockPhase, lockedByOther, detail.dataUpdatedAt]);

  /**
   * The first edit (or an explicit Edit): take the lock. Resolves true when it is held. Refused
   * because another user holds it: the edits typed meanwhile are put back and the holder is named.
   */
  const startEditing = useCallback((): Promise<boolean> => {
    if (phaseRef.current === 'held') {
      return Promise.resolve(true);
    }
    if (locking.current) {
      return locking.current;
    }
    phaseRef.current = 'taking';
    setLockPhase('taking');
    const putBack = () => {
      const before = beforeEdit.current;
      beforeEdit.current = null;
      if (before) {
        updateDraft(() => before);
      }
    };
    const taking = lockReport(reportId)
      .then(
        (answer) => {
          if (!mounted.current) {
            // The editor closed while the lock was being taken: give it straight back.
            void unlockReport(reportId).catch(() => undefined);
            return false;
          }
          const mine = answer.lock?.mine ?? false;
          if (mine) {
            beforeEdit.current = null;
          } else {
            putBack();
          }
          setReport(answer);
          phaseRef.current = mine ? 'held' : 'refused';
          setLockPhase(phaseRef.current);
          return mine;
        },
        (error: unknown) => {
          if (!mounted.current) {
            return false;
          }
          if (hasCode(error, 'ReportLocked')) {
            refusedAt.current = Date.now();
            setLockHolder(lockedName(error));
            putBack();
            phaseRef.current = 'refused';
          } else {
            // Not editable any more, or the call failed: keep the text, read the report again.
            beforeEdit.current = null;
            phaseRef.current = 'idle';
          }
          setLockPhase(phaseRef.current);
          // Learn who holds it (and watch for its release) or what changed.
          void queryClient.invalidateQueries({ queryKey: reportKeys.detail(reportId) });
          return false;
        },
      )
      .finally(() => {
        locking.current = null;
      });
    locking.current = taking;
    return taking;
  }, [reportId, setReport, queryClient, updateDraft]);

  // Heartbeat: renew the lock and pick up state changes made by others (an approver, an admin).
  useEffect(() => {
    if (lockPhase !== 'held') {
      return;
    }
    const timer = setInterval(() => {
      syncReport(reportId).then(
        (answer) => {
          const { version: _version, ...state } = answer;
          mergeState(state);
          if (!answer.lock) {
            setLockPhase('idle');
          } else if (!answer.lock.mine) {
            loseLock(answer.lock.lockedBy.name);
          }
        },
        (error: unknown) => {
          if (hasCode(error, 'ReportLocked')) {
            loseLock(lockedName(error));
          }
        },
      );
    }, REPORT_HEARTBEAT_MS);
    return () => clearInterval(timer);
  }, [lockPhase, reportId, mergeState, loseLock]);

  // Give the lock back when the editor closes: on leaving the page, and when the tab goes away.
  useEffect(() => {
    mounted.current = true;
    const onExit = () => {
      if (phaseRef.current === 'held') {
        unlockReportOnExit(reportId);
      }
    };
    window.addEventListener('pagehide', onExit);
    return () => {
      mounted.current = false;
      window.removeEventListener('pagehide', onExit);
      if (phaseRef.current === 'held') {
        phaseRef.current = 'idle';
        void unlockReport(reportId).catch(() => undefined);
      }
    };
  }, [reportId]);

  /** Run one write after the ones before it; the text and version are read when its turn comes. */
  const enqueue = useCallback(<T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.current.then(work, work);
    queue.current = next.catch(() => undefined);
    return next;
  }, []);

  const handleWriteError = useCallback(
    (error: unknown) => {
      const refetch = () => void queryClient.invalidateQueries({ queryKey: reportKeys.detail(reportId) });
      if (hasCode(error, 'ReportVersionConflict')) {
        const parsed = reportConflictDetailsSchema.safeParse(error.details);
        if (parsed.success) {
          setConflict(parsed.data);
        }
      } else if (hasCode(error, 'ReportLocked')) {
        loseLock(lockedName(error));
      } else if (hasCode(error, 'ReportNotEditable') || hasCode(error, 'NoPermissionToEdit')) {
        refetch();
      }
    },
    [queryClient, reportId, loseLock],
  );

  /** POST reports/{id}/{action}; content actions send the screen's text and its base version. */
  const runAction = useCallback(
    (action: ReportAction, extra: ActionExtra = {}, options: { autosave?: boolean } = {}) =>
      enqueue(async () => {
        const state = draftRef.current;
        if (!state) {
          throw new Error('The report is not loaded yet');
        }
        const sendsContent = CONTENT_ACTIONS.has(action);
        const sent = state.draft;
        if (options.autosave) {
          setSaving(true);
        } else {
          setPending(action);
        }
        try {
          const answer = await runReportAction(
            reportId,
            action,
            sendsContent ? { version: state.baseVersion, content: sent, ...extra } : extra,
          );
          if (isFullReport(answer)) {
            if (sendsContent) {
              updateDraft((d) => (d ? savedAs(d, sent, answer.version) : d));
              setSavedAt(answer.savedAt ? new Date(answer.savedAt) : new Date());
            }
            setReport(answer);
          } else {
            mergeState(answer);
          }
          return answer;
        } catch (error) {
          handleWriteError(error);
          throw error;
        } finally {
          setSaving(false);
          setPending(null);
        }
      }),
    [enqueue, reportId, setReport, mergeState, handleWriteError, updateDraft],
  );

  const canSave = lockPhase === 'held' && (report?.transitions.includes('save') ?? false);
  const dirty = draftState ? isDirty(draftState) : false;
  const dirtyNow = useCallback(() => (draftRef.current ? isDirty(draftRef.current) : false), []);

  // Autosave a changed draft now and then, quietly: the text on screen is never replaced by it.
  const conflictOpen = useRef(false);
  conflictOpen.current = conflict !== null;
  const runActionRef = useRef(runAction);
  runActionRef.current = runAction;
  const autosaveErrorRef = useRef(onAutosaveError);
  autosaveErrorRef.current = onAutosaveError;
  useEffect(() => {
    if (!canSave) {
      return;
    }
    const timer = setInterval(() => {
      const state = draftRef.current;
      if (state && isDirty(state) && !conflictOpen.current) {
        runActionRef.current('save', {}, { autosave: true }).catch((error: unknown) => {
          if (!hasCode(error, 'ReportVersionConflict') && !hasCode(error, 'ReportLocked')) {
            autosaveErrorRef.current(error);
          }
        });
      }
    }, REPORT_AUTOSAVE_MS);
    return () => clearInterval(timer);
  }, [canSave]);

  /** An edit of the text; the first one takes the lock (the text shows at once, put back if refused). */
  const change = useCallback(
    (patch: Partial<ReportContent>) => {
      if (phaseRef.current === 'idle') {
        beforeEdit.current = draftRef.current;
        void startEditing();
      }
      updateDraft((d) => (d ? edit(d, patch) : d));
    },
    [updateDraft, startEditing],
  );

  const resolveConflict = useCallback(
    async (choice: 'mine' | 'theirs') => {
      if (!conflict) {
        return;
      }
      setConflict(null);
      if (choice === 'theirs') {
        updateDraft(() => takeTheirs(conflict.current, conflict.currentVersion));
        await queryClient.invalidateQueries({ queryKey: reportKeys.detail(reportId) });
        return;
      }
      updateDraft((d) => (d ? keepMine(d, conflict.current, conflict.currentVersion) : d));
      await runAction('save');
    },
    [conflict, queryClient, reportId, runAction, updateDraft],
  );

  const simple = useCallback(
    (kind: 'unlock' | 'reset' | 'forceUnlock', call: (id: string) => Promise<Report>) =>
      enqueue(async () => {
        setPending(kind);
        try {
          const answer = await call(reportId);
          // These give up the text on screen (spec 000 §4 "unlock and reset clear the edited content").
          updateDraft(() => initialDraft(answer.content, answer.version));
          setReport(answer);
          if (kind === 'unlock') {
            setLockPhase('released');
          } else if (kind === 'forceUnlock') {
            setLockHolder(null);
            setLockPhase('idle');
          }
          return answer;
        } finally {
          setPending(null);
        }
      }),
    [enqueue, reportId, setReport, updateDraft],
  );

  return {
    detail,
    report,
    draft: draftState?.draft ?? null,
    dirty,
    /** whether the text differs from the stored one now, before the next render shows it (leaving right after an action) */
    dirtyNow,
    lockPhase,
    /** the name of whoever else holds the lock, when it is not us */
    lockHolder: lockedByOther ?? (lockPhase === 'refused' || lockPhase === 'lost' ? lockHolder : null),
    /** the text may be typed into: editable, and not held by anyone else (the first edit takes the lock) */
    writable: editable && !lockedByOther && (lockPhase === 'idle' || lockPhase === 'taking' || lockPhase === 'held'),
    /** an explicit Edit takes the lock before any typing */
    canStartEditing: editable && !lockedByOther && lockPhase === 'idle',
    startEditing,
    canSave,
    saving,
    // The last save by anyone: this editor's own, or one the server reports (detail, heartbeat).
    savedAt: latestOf(savedAt, report?.savedAt ? new Date(report.savedAt) : null),
    pending,
    conflict,
    change,
    runAction,
    resolveConflict,
    unlock: () => simple('unlock', unlockReport),
    reset: () => simple('reset', resetReport),
    forceUnlock: () => simple('forceUnlock', forceUnlockReport),
    editAgain: () => {
      setLockHolder(null);
      phaseRef.current = 'idle';
      void startEditing();
    },
    reload: async () => {
      const fresh = await detail.refetch();
      if (fresh.data) {
        const data = fresh.data;
        updateDraft(() => initialDraft(data.content, data.version));
      }
      setLockHolder(null);
      setLockPhase('idle');
    },
  };
}

export type ReportEditor = ReturnType<typeof useReportEditor>;

function isFullReport(answer: Report | ReportState): answer is Report {
  return 'content' in answer && 'version' in answer;
}

function lockedName(error: unknown): string | null {
  if (!isApiError(error) || error.code !== 'ReportLocked') {
    return null;
  }
  const details = error.details as { lockedBy?: { name?: unknown } } | undefined;
  return typeof details?.lockedBy?.name === 'string' ? details.lockedBy.name : null;
}

/** The later of two times, either of which may be missing. */
export function latestOf(a: Date | null, b: Date | null): Date | null {
  if (!a || !b) {
    return a ?? b;
  }
  return a.getTime() >= b.getTime() ? a : b;
}
