import { useQuery } from '@tanstack/react-query';
import type { PermissionEntry } from '@yyp/contracts';
import { useMemo } from 'react';
import { fetchMyPermissions } from '../../api/accounts';
import { queryKeys } from '../../api/queryClient';
import { useSessionState } from '../session/useSessionState';

/**
 * What the caller may do, per organization, from GET accounts/me/permissions: the one source every
 * screen asks before it shows an action button. The server computes each entry with the same
 * effectiveActions that authorizes the calls (the organization level — admin, contentManager,
 * collaborator, member — already narrowed or widened the role actions), so a button shown here is
 * a call the server allows, and a button hidden here is a call it would refuse with 403.
 */
export interface HeldActions {
  /** the answer is here (until then nothing is held, so no button flashes and then goes) */
  known: boolean;
  /** the caller holds `action` in organization `bucketId` */
  can(bucketId: string | null | undefined, action: string): boolean;
  /** the caller holds `action` in at least one organization */
  anywhere(action: string): boolean;
  /** the organizations where the caller holds `action` */
  bucketsWith(action: string): string[];
  /** every action the caller holds in `bucketId` */
  actionsIn(bucketId: string | null | undefined): ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

/** Pure: the permission entries as look-ups (no entries, or none yet, hold nothing). */
export function heldActions(entries: readonly PermissionEntry[] | undefined): HeldActions {
  const byBucket = new Map<string, ReadonlySet<string>>();
  for (const entry of entries ?? []) {
    // One entry per organization; should two ever come, the caller holds the union.
    const before = byBucket.get(entry.bucketId) ?? NONE;
    byBucket.set(entry.bucketId, new Set([...before, ...entry.actions]));
  }
  const actionsIn = (bucketId: string | null | undefined) => (bucketId ? (byBucket.get(bucketId) ?? NONE) : NONE);
  return {
    known: entries !== undefined,
    can: (bucketId, action) => actionsIn(bucketId).has(action),
    anywhere: (action) => [...byBucket.values()].some((set) => set.has(action)),
    bucketsWith: (action) => [...byBucket].filter(([, set]) => set.has(action)).map(([id]) => id),
    actionsIn,
  };
}

/**
 * The cached permission query (one per session: every hook below shares it). It refreshes with
 * the other accounts/me queries, e.g. when an admin changes the caller's own roles. `fresh` asks
 * again on mount (the page that lists the permissions shows a changed role after a visit).
 */
export function usePermissionsQuery(options: { fresh?: boolean } = {}) {
  const { session } = useSessionState();
  return useQuery({
    queryKey: queryKeys.permissions,
    queryFn: ({ signal }) => fetchMyPermissions(signal),
    enabled: Boolean(session?.accessToken),
    ...(options.fresh ? { staleTime: 0 } : {}),
  });
}

/** The caller's actions per organization, for showing only the buttons that will work. */
export function usePermissions(): HeldActions {
  const query = usePermissionsQuery();
  return useMemo(() => heldActions(query.data), [query.data]);
}

/** Whether the caller holds `action` in `bucketId`, or in some organization when no bucket is named. */
export function useHolds(action: string, bucketId?: string | null): boolean {
  const held = usePermissions();
  return bucketId === undefined ? held.anywhere(action) : held.can(bucketId, action);
}

/** Every action the caller holds in one organization. */
export function useHeldActions(bucketId: string | null | undefined): ReadonlySet<string> {
  return usePermissions().actionsIn(bucketId);
}
