import * as core from '@cornerstonejs/core';
import * as tools from '@cornerstonejs/tools';
import {
  VIDEO_TOKEN_SCHEME,
  nextPresenter,
  videoEnvelopeSchema,
  videoTopic,
  type Presenter,
  type VideoRoomToken,
  type VideoSignal,
  type ViewState,
} from '@yyp/contracts';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import { videoRoomToken } from '../../api/video';
import { LiveClient, type LiveStatus } from '../../shared/live';
import { useLiveTopic } from '../../shared/liveHooks';
import { renderingEngine, type StackImage } from './engine';
import { FollowCoalescer } from './followCoalescer';
import { applyFollowSteps, clearFollowLayer, drawFollowLayer } from './followCornerstone';
import { captureView, followAnnotationSpecs, planFollow, type AnnotationLike } from './followPlan';
import { keyCommand } from './viewportActions';
import { viewportId, type CellContent } from './ViewportCell';

export interface FollowModeInput {
  /** the consultation whose room the viewer joins (?consultation=<id>); null: no shared viewing */
  consultationId: string | null;
  ready: boolean;
  grid: RefObject<HTMLDivElement | null>;
  active: number;
  cells: (CellContent | null)[];
  stacks: Record<string, StackImage[]>;
  hasStudy: (studyUid: string) => boolean;
  show: (index: number, content: CellContent) => void;
}

export interface FollowMode {
  enabled: boolean;
  status: LiveStatus;
  /** why the room cannot be joined (the token call's error) */
  error: unknown;
  presenting: boolean;
  /** who else presents, if anyone */
  presenter: Presenter | null;
  following: boolean;
  missingStudy: boolean;
  togglePresent: () => void;
  toggleFollow: () => void;
}

const stackKey = (c: CellContent) => `${c.studyUid}|${c.seriesUid}`;
const RETRY_MS = 150;
const MAX_RETRIES = 80;
const VIEW_EVENTS = [
  core.Enums.Events.STACK_NEW_IMAGE,
  core.Enums.Events.VOI_MODIFIED,
  core.Enums.Events.CAMERA_MODIFIED,
];
const MARK_EVENTS = [
  tools.Enums.Events.ANNOTATION_COMPLETED,
  tools.Enums.Events.ANNOTATION_MODIFIED,
  tools.Enums.Events.ANNOTATION_REMOVED,
];

const viewportAt = (index: number) =>
  renderingEngine().getViewport(viewportId(index)) as core.StackViewport | undefined;

/**
 * Shared viewing in the viewer (issue 25): with a consultation, the viewer joins its room as a
 * peer of its own (a room token, its own live socket, topic rtc:<id>). Presenting publishes the
 * active viewport's view at each change (coalesced, ≤ 10 a second); following applies the
 * presenter's view to the active viewport (loading the series if needed) and draws its marks as
 * the follow layer. Any manual interaction of a follower leaves the follow mode until Follow is
 * pressed again, which asks the presenter for its view (view-request).
 */
export function useFollowMode(input: FollowModeInput): FollowMode {
  const id = input.consultationId;
  const latest = useRef(input);
  latest.current = input;
  const [token, setToken] = useState<VideoRoomToken | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [presenting, setPresenting] = useState(false);
  const [presenter, setPresenter] = useState<Presenter | null>(null);
  const [following, setFollowing] = useState(true);
  const [missingStudy, setMissingStudy] = useState(false);
  const tokenRef = useRef<VideoRoomToken | null>(null);
  const mode = useRef({ presenting: false, following: true, presenter: null as Presenter | null });
  const target = useRef<ViewState | null>(null);
  const drawnKey = useRef<string | null>(null);
  const retry = useRef({ timer: null as ReturnType<typeof setTimeout> | null, attempts: 0, busy: false });
  const topic = id ? videoTopic(id) : null;

  // The room token, renewed for the same peer a minute before it expires.
  useEffect(() => {
    if (!id) return undefined;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const get = async (peerId?: string) => {
      try {
        const issued = await videoRoomToken(id, peerId);
        if (!live) return;
        tokenRef.current = issued;
        setToken(issued);
        setError(null);
        const ms = Math.max(30_000, Date.parse(issued.expiresAt) - Date.now() - 60_000);
        timer = setTimeout(() => void get(issued.peerId), ms);
      } catch (err) {
        if (live) setError(err);
      }
    };
    void get();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [id]);

  const client = useMemo(
    () =>
      id
        ? new LiveClient({
            auth: () => (tokenRef.current ? { token: tokenRef.current.token, scheme: VIDEO_TOKEN_SCHEME } : null),
          })
        : null,
    [id],
  );
  const status = useSyncExternalStore(
    useCallback((onChange: () => void) => client?.watchStatus(onChange) ?? (() => undefined), [client]),
    () => client?.status ?? 'idle',
  );
  const publish = useCallback(
    (signal: VideoSignal) => (client && topic ? client.publish(topic, signal) : false),
    [client, topic],
  );
  const coalescer = useMemo(() => new FollowCoalescer((state) => publish({ kind: 'view', state })), [publish]);

  const setMode = useCallback((next: Partial<typeof mode.current>) => {
    mode.current = { ...mode.current, ...next };
    if (next.presenting !== undefined) setPresenting(next.presenting);
    if (next.following !== undefined) setFollowing(next.following);
    if (next.presenter !== undefined) setPresenter(next.presenter);
  }, []);

  /** The active viewport's view, once it shows its cell's stack. */
  const captureNow = useCallback((): ViewState | null => {
    const { active, cells, stacks } = latest.current;
    const content = cells[active];
    const stack = content ? stacks[stackKey(content)] : undefined;
    const vp = viewportAt(active);
    if (!content || !stack?.length || !vp || vp.getImageIds()[0] !== stack[0]!.imageId) return null;
    return captureView(vp, content, stack, tools.annotation.state.getAllAnnotations() as AnnotationLike[]);
  }, []);
  const pushView = useCallback(
    (force = false) => {
      const state = mode.current.presenting ? captureNow() : null;
      if (state) coalescer.push(state, force);
    },
    [captureNow, coalescer],
  );

  // The follower's loop: one step towards the presenter's view, again shortly until in step.
  const reconcile = useCallback((): void => {
    const r = retry.current;
    const t = target.current;
    const { presenting: isPresenting, following: isFollowing, presenter: who } = mode.current;
    if (!t || isPresenting || !isFollowing || !who || r.busy) return;
    const again = () => {
      if (r.timer || ++r.attempts > MAX_RETRIES) return;
      r.timer = setTimeout(() => {
        r.timer = null;
        reconcile();
      }, RETRY_MS);
    };
    const { active, cells, stacks, hasStudy, show, ready, grid } = latest.current;
    if (!ready) return again();
    const shown = cells[active] ?? null;
    const stack = shown ? (stacks[stackKey(shown)] ?? null) : null;
    const vp = viewportAt(active);
    const cell = grid.current?.querySelector(`[data-testid="viewport-${active}"]`);
    const stackReady = Boolean(
      cell?.getAttribute('data-stack-ready') === 'true' &&
      vp &&
      stack?.length &&
      vp.getImageIds()[0] === stack[0]!.imageId,
    );
    const current = stackReady && vp && shown && stack ? captureView(vp, shown, stack) : null;
    const plan = planFollow({ target: t, hasStudy: hasStudy(t.studyUid), shown, stack, stackReady, current });
    setMissingStudy(plan.kind === 'missing-study');
    const drawMarks = () => {
      const key = `${t.seriesUid}|${JSON.stringify(t.measurements)}`;
      if (!vp || !stack || drawnKey.current === key) return;
      drawFollowLayer(vp, followAnnotationSpecs(t.measurements, stack));
      drawnKey.current = key;
    };
    if (plan.kind === 'missing-study') return;
    if (plan.kind === 'show-series') {
      show(active, plan.content);
      return again();
    }
    if (plan.kind === 'wait') return again();
    if (plan.kind === 'in-step') return drawMarks();
    r.busy = true;
    void applyFollowSteps(vp!, plan.steps).finally(() => {
      r.busy = false;
      drawMarks();
      again();
    });
  }, []);
  const followNow = useCallback(() => {
    if (retry.current.timer) clearTimeout(retry.current.timer);
    retry.current.timer = null;
    retry.current.attempts = 0;
    reconcile();
  }, [reconcile]);

  const onEvent = (event: unknown) => {
    const parsed = videoEnvelopeSchema.safeParse(event);
    if (!parsed.success) return;
    const { from, data } = parsed.data;
    if (from.peerId === tokenRef.current?.peerId) return;
    if (data.kind === 'view-request') {
      if (mode.current.presenting) pushView(true);
      return;
    }
    const before = mode.current.presenter;
    const after = nextPresenter(before, data, from);
    if (after?.peerId !== before?.peerId) {
      // someone else presents now: the latest wins, and following is on by default
      if (after) {
        if (mode.current.presenting) coalescer.reset();
        setMode({ presenter: after, presenting: false, following: true });
      } else {
        setMode({ presenter: null });
      }
      target.current = null;
      drawnKey.current = null;
      if (clearFollowLayer()) renderingEngine().render();
    }
    if (data.kind === 'view' && after?.peerId === from.peerId) {
      target.current = data.state;
      followNow();
    }
  };
  const onResync = () => {
    if (mode.current.presenting) {
      publish({ kind: 'present', on: true });
      pushView(true);
    } else {
      publish({ kind: 'view-request' });
    }
  };

  // A presenter leaving the page stops presenting (best effort) before the socket closes.
  useEffect(() => {
    if (!client || !topic) return undefined;
    const bye = () => {
      if (mode.current.presenting) client.publish(topic, { kind: 'present', on: false });
    };
    window.addEventListener('pagehide', bye);
    return () => {
      window.removeEventListener('pagehide', bye);
      bye();
      client.close();
    };
  }, [client, topic]);
  useLiveTopic(token ? topic : null, onEvent, { onResync, client: client ?? undefined });

  // The presenter sends its view at each change of image, window, camera or marks, and of series.
  useEffect(() => {
    const el = input.grid.current;
    if (!presenting || !el) return undefined;
    const push = () => pushView();
    for (const e of VIEW_EVENTS) el.addEventListener(e, push, true);
    for (const e of MARK_EVENTS) core.eventTarget.addEventListener(e, push);
    return () => {
      for (const e of VIEW_EVENTS) el.removeEventListener(e, push, true);
      for (const e of MARK_EVENTS) core.eventTarget.removeEventListener(e, push);
    };
  }, [presenting, input.grid, pushView]);
  useEffect(() => {
    if (presenting) pushView();
  }, [presenting, input.active, input.cells, input.stacks, pushView]);

  const togglePresent = useCallback(() => {
    if (mode.current.presenting) {
      publish({ kind: 'present', on: false });
      coalescer.reset();
      setMode({ presenting: false });
      return;
    }
    if (!publish({ kind: 'present', on: true })) return;
    target.current = null;
    drawnKey.current = null;
    if (clearFollowLayer()) renderingEngine().render();
    setMode({ presenting: true, presenter: null, following: false });
    pushView(true);
  }, [publish, coalescer, setMode, pushView]);

  const toggleFollow = useCallback(() => {
    if (mode.current.following) {
      setMode({ following: false });
      return;
    }
    setMode({ following: true });
    publish({ kind: 'view-request' });
    followNow();
  }, [publish, setMode, followNow]);

  // Any manual interaction of a follower with the images leaves the follow mode.
  useEffect(() => {
    if (!id) return undefined;
    const leave = (e: Event) => {
      if (!mode.current.following || !mode.current.presenter || mode.current.presenting) return;
      const el = e.target instanceof Element ? e.target : null;
      if (e instanceof KeyboardEvent) {
        if (e.ctrlKey || e.metaKey || e.altKey || !keyCommand(e.key)) return;
        if (el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA')) return;
      } else if (!el?.closest('.viewer-page') || el.closest('[data-follow-keep]')) {
        return;
      }
      setMode({ following: false });
    };
    const keys = (e: KeyboardEvent) => {
      const el = e.target instanceof HTMLElement ? e.target : null;
      if (e.ctrlKey || e.metaKey || e.altKey || el?.tagName === 'INPUT' || el?.tagName === 'TEXTAREA') return;
      if (e.key === 'P') togglePresent();
      else if (e.key === 'f' || e.key === 'F') toggleFollow();
      else return;
      e.preventDefault();
    };
    const kinds = ['pointerdown', 'wheel', 'keydown'] as const;
    for (const k of kinds) document.addEventListener(k, leave, true);
    window.addEventListener('keydown', keys);
    return () => {
      for (const k of kinds) document.removeEventListener(k, leave, true);
      window.removeEventListener('keydown', keys);
    };
  }, [id, setMode, togglePresent, toggleFollow]);

  useEffect(
    () => () => {
      if (retry.current.timer) clearTimeout(retry.current.timer);
    },
    [],
  );

  return {
    enabled: Boolean(id),
    status,
    error,
    presenting,
    presenter,
    following,
    missingStudy,
    togglePresent,
    toggleFollow,
  };
}
