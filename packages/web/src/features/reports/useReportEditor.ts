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
 * The edit lock as this editor sees it: not asked for yet, being taken, held, refused or lost
 * (another user holds it), or given back by the user (unlock).
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
  const locking = useRef(false);
  const refusedAt = useRef(0);

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

  // Take the lock when the report is editable; an action that hands the report on frees it.
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
    // Refused, and the lock shows free again: try once more, but no sooner than the next poll, so
    // a report whose lock flickers is not hammered.
    if (
      lockPhase === 'refused' &&
      !lockedByOther &&
      detail.dataUpdatedAt - refusedAt.current >= LOCKED_POLL_MS - 1000
    ) {
      setLockPhase('idle');
      return;
    }
    if (lockPhase !== 'idle' || locking.current) {
      return;
    }
    locking.current = true;
    setLockPhase('taking');
    lockReport(reportId)
      .then(
        (answer) => {
          setReport(answer);
          setLockPhase(answer.lock?.mine ? 'held' : 'refused');
        },
        (error: unknown) => {
          refusedAt.current = Date.now();
          setLockHolder(lockedName(error));
          setLockPhase('refused');
          // Learn who holds it and watch for its release.
          void queryClient.invalidateQueries({ queryKey: reportKeys.detail(reportId) });
        },
      )
      .finally(() => {
        locking.current = false;
      });
  }, [report, editable, lockPhase, lockedByOther, reportId, setReport, queryClient, detail.dataUpdatedAt]);

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
    const onExit = () => {
      if (phaseRef.current === 'held') {
        unlockReportOnExit(reportId);
      }
    };
    window.addEventListener('pagehide', onExit);
    return () => {
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

  const change = useCallback(
    (patch: Partial<ReportContent>) => updateDraft((d) => (d ? edit(d, patch) : d)),
    [updateDraft],
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
    lockPhase,
    /** the name of whoever else holds the lock, when it is not us */
    lockHolder: lockedByOther ?? (lockPhase === 'refused' || lockPhase === 'lost' ? lockHolder : null),
    /** the text may be typed into */
    writable: lockPhase === 'held' && editable,
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
      setLockPhase('idle');
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
