import { GROUP_ACCESS_LEVELS, type Group, type GroupAccessLevel } from '@yyp/contracts';

export type NavKey = 'studies' | 'groups' | 'accounts' | 'logs' | 'settings';

export interface NavEntry {
  key: NavKey;
  path: string;
  label: `nav.${NavKey}`;
  /** Shown only to users holding this level in at least one group. */
  requiresLevel?: GroupAccessLevel;
}

/** Navbar entries of spec 000 §2 whose pages exist, in navbar order; the others join as they arrive. */
export const NAV_ENTRIES: readonly NavEntry[] = [
  { key: 'studies', path: '/studies', label: 'nav.studies' },
  { key: 'groups', path: '/groups', label: 'nav.groups' },
  { key: 'accounts', path: '/accounts', label: 'nav.accounts', requiresLevel: GROUP_ACCESS_LEVELS.securityAdmin },
  { key: 'logs', path: '/logs', label: 'nav.logs', requiresLevel: GROUP_ACCESS_LEVELS.auditor },
  { key: 'settings', path: '/settings', label: 'nav.settings' },
];

/**
 * The entries a user sees: account administration only for security admins and the operation log
 * only for auditors of some group (levels from GET groups/mine). Until the groups arrive, or when
 * the call fails, the level-bound entries stay hidden: the server refuses those pages anyway.
 */
export function visibleNavEntries(groups: readonly Group[] | undefined): NavEntry[] {
  const levels = new Set((groups ?? []).map((group) => group.accessLevel));
  return NAV_ENTRIES.filter((entry) => entry.requiresLevel === undefined || levels.has(entry.requiresLevel));
}

export function selectedNavKey(pathname: string): NavKey[] {
  const entry = NAV_ENTRIES.find((e) => pathname === e.path || pathname.startsWith(`${e.path}/`));
  return entry ? [entry.key] : [];
}
