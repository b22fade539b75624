import { useQueryClient } from '@tanstack/react-query';
import { REPORT_HEARTBEAT_MS, type Report, type ReportState } from '@yyp/contracts';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type Dispatch,
  type MutableRefObject,
  type SetStateAction,
} from 'react';
import { hasCode, isApiError } from '../../api/errors';
import { lockReport, syncReport, unlockReport, unlockReportOnExit } from '../../api/reports';
import type { DraftState } from './draft';
import { reportKeys } from './reportKeys';

/**
 * The edit lock as this editor sees it: not asked for yet (reading: opening takes no lock), being
 * taken (the first edit), held, refused or lost (another user holds it), or given back by the user
 * (unlock).
 */
export type LockPhase = 'idle' | 'taking' | 'held' | 'refused' | 'lost' | 'released';

/** While another user holds the lock, look again this often to see whether it was freed. */
export const LOCKED_POLL_MS = 15_000;

interface LockInput {
  reportId: string;
  /** the phase, kept by the editor (its report query polls while the lock is refused) */
  phase: [LockPhase, Dispatch<SetStateAction<LockPhase>>];
  report: Report | undefined;
  /** the report's transitions allow editing it */
  editable: boolean;
  /** the name of another user holding the lock, as the server last said */
  lockedByOther: string | null;
  /** when the report query last answered */
  dataUpdatedAt: number;
  setReport: (next: Report) => void;
  mergeState: (state: Partial<Report> & ReportState) => void;
  draftRef: MutableRefObject<DraftState | null>;
  updateDraft: (next: (d: DraftState | null) => DraftState | null) => void;
}

/**
 * The report editor's lock-on-first-edit (issue 20 item 5): no lock is asked for until the first
 * edit (a change of the text, or startEditing for an explicit Edit); the edits typed while it is
 * being taken are put back if it is refused. While held, a heartbeat renews it and picks up what
 * others did; it is given back when the editor closes (unmount, route change, tab closed) or lapses
 * on the server when the heartbeat stops.
 */
export function useReportLock(input: LockInput) {
  const { reportId, report, editable, lockedByOther, dataUpdatedAt, setReport, mergeState, draftRef, updateDraft } =
    input;
  const [lockPhase, setLockPhase] = input.phase;
  const queryClient = useQueryClient();
  const [lockHolder, setLockHolder] = useState<string | null>(null);
  const phaseRef = useRef(lockPhase);
  phaseRef.current = lockPhase;
  const locking = useRef<Promise<boolean> | null>(null);
  const refusedAt = useRef(0);
  const mounted = useRef(true);
  // The text as it was before the edits typed while the lock was being taken (put back if refused).
  const beforeEdit = useRef<DraftState | null>(null);

  const loseLock = useCallback(
    (name: string | null) => {
      setLockHolder(name);
      setLockPhase('lost');
    },
    [setLockPhase],
  );

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
    if (lockPhase === 'refused' && !lockedByOther && dataUpdatedAt - refusedAt.current >= LOCKED_POLL_MS - 1000) {
      setLockPhase('idle');
    }
  }, [report, editable, lockPhase, lockedByOther, dataUpdatedAt, setLockPhase]);

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
  }, [reportId, setReport, queryClient, updateDraft, setLockPhase]);

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
  }, [lockPhase, reportId, mergeState, loseLock, setLockPhase]);

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

  /** An edit of the text: the first one takes the lock (the text before it is kept, put back if refused). */
  const beginEdit = useCallback(() => {
    if (phaseRef.current === 'idle') {
      beforeEdit.current = draftRef.current;
      void startEditing();
    }
  }, [draftRef, startEditing]);

  return {
    lockPhase,
    setLockPhase,
    /** the name of whoever else holds the lock, as last learnt from a refusal or the heartbeat */
    lockHolder,
    setLockHolder,
    loseLock,
    startEditing,
    beginEdit,
    /** Edit again after the lock was lost: forget the holder and take it. */
    editAgain: () => {
      setLockHolder(null);
      phaseRef.current = 'idle';
      void startEditing();
    },
  };
}

export function lockedName(error: unknown): string | null {
  if (!isApiError(error) || error.code !== 'ReportLocked') {
    return null;
  }
  const details = error.details as { lockedBy?: { name?: unknown } } | undefined;
  return typeof details?.lockedBy?.name === 'string' ? details.lockedBy.name : null;
}
