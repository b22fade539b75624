import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CONTENT_ACTIONS,
  REPORT_AUTOSAVE_MS,
  isEditable,
  reportConflictDetailsSchema,
  type Report,
  type ReportAction,
  type ReportConflictDetails,
  type ReportContent,
  type ReportState,
} from '@yyp/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { hasCode } from '../../api/errors';
import { fetchReport, forceUnlockReport, resetReport, runReportAction, unlockReport } from '../../api/reports';
import { edit, initialDraft, isDirty, keepMine, receiveServer, savedAs, takeTheirs, type DraftState } from './draft';
import { reportKeys } from './reportKeys';
import { LOCKED_POLL_MS, lockedName, useReportLock, type LockPhase } from './useReportLock';

export { reportKeys };
export type { LockPhase };

export interface ActionExtra {
  reason?: string;
  expertIds?: string[];
}

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
  const phase = useState<LockPhase>('idle');
  const [lockPhase] = phase;
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
  const queue = useRef<Promise<unknown>>(Promise.resolve());

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

  const lock = useReportLock({
    reportId,
    phase,
    report,
    editable,
    lockedByOther,
    dataUpdatedAt: detail.dataUpdatedAt,
    setReport,
    mergeState,
    draftRef,
    updateDraft,
  });
  const { setLockPhase, lockHolder, setLockHolder, loseLock, startEditing, beginEdit } = lock;

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
      beginEdit();
      updateDraft((d) => (d ? edit(d, patch) : d));
    },
    [updateDraft, beginEdit],
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
    [enqueue, reportId, setReport, updateDraft, setLockPhase, setLockHolder],
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
    editAgain: lock.editAgain,
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

/** The later of two times, either of which may be missing. */
export function latestOf(a: Date | null, b: Date | null): Date | null {
  if (!a || !b) {
    return a ?? b;
  }
  return a.getTime() >= b.getTime() ? a : b;
}
