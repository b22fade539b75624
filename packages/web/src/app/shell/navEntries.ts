import {
  CRITICAL_LIST_ACTIONS,
  GROUP_ACCESS_LEVELS,
  QUALITY_REVIEW_ACTIONS,
  type Group,
  type GroupAccessLevel,
} from '@yyp/contracts';

export type NavKey =
  | 'studies'
  | 'registry'
  | 'criticalValues'
  | 'quality'
  | 'calling'
  | 'statistics'
  | 'consultations'
  | 'reportPublish'
  | 'orders'
  | 'groups'
  | 'accounts'
  | 'logs'
  | 'dicomRefusals'
  | 'platformAdmin'
  | 'learning'
  | 'help'
  | 'settings';

export interface NavEntry {
  key: NavKey;
  path: string;
  label: `nav.${NavKey}`;
  /** Shown only to users holding this level in at least one group. */
  requiresLevel?: GroupAccessLevel;
  /** Shown only to users holding one of these actions in at least one organization. */
  requiresAnyAction?: readonly string[];
  /** Shown only to the platform's admins. */
  requiresPlatformAdmin?: boolean;
  /** Shown only to registrars: GET registry-buckets lists at least one organization. */
  requiresRegistryDesk?: boolean;
  /** Shown only to callers: calling_call or calling_manage_queue in an organization of a group with calling on. */
  requiresCallingDesk?: boolean;
  /** Shown only to those who may count something: GET buckets/allowed-statistics lists an organization. */
  requiresStatistics?: boolean;
  /** Shown only when a group of the caller has this setting on. */
  requiresGroupFlag?: 'enableConsultation';
}

/** Navbar entries of spec 000 §2 whose pages exist, in navbar order; the others join as they arrive. */
export const NAV_ENTRIES: readonly NavEntry[] = [
  { key: 'studies', path: '/studies', label: 'nav.studies' },
  { key: 'registry', path: '/registry', label: 'nav.registry', requiresRegistryDesk: true },
  {
    key: 'criticalValues',
    path: '/critical-values',
    label: 'nav.criticalValues',
    requiresAnyAction: CRITICAL_LIST_ACTIONS,
  },
  {
    key: 'quality',
    path: '/quality',
    label: 'nav.quality',
    requiresAnyAction: QUALITY_REVIEW_ACTIONS,
  },
  { key: 'calling', path: '/calling', label: 'nav.calling', requiresCallingDesk: true },
  // Statistics (issue 26): the caller's group statistics, for those allowed some statistic somewhere.
  { key: 'statistics', path: '/group-statistics', label: 'nav.statistics', requiresStatistics: true },
  // Consultations (issue 25): where a group of the caller has them on.
  { key: 'consultations', path: '/consultations', label: 'nav.consultations', requiresGroupFlag: 'enableConsultation' },
  {
    key: 'reportPublish',
    path: '/report-publish',
    label: 'nav.reportPublish',
    requiresAnyAction: ['order_report_publish'],
  },
  // The order list (issue 24): those who order reads, refund or invoice them.
  {
    key: 'orders',
    path: '/orders',
    label: 'nav.orders',
    requiresAnyAction: ['apply_expert_report', 'apply_remote_report', 'payment_refund', 'issue_invoice'],
  },
  { key: 'groups', path: '/groups', label: 'nav.groups' },
  { key: 'accounts', path: '/accounts', label: 'nav.accounts', requiresLevel: GROUP_ACCESS_LEVELS.securityAdmin },
  { key: 'logs', path: '/logs', label: 'nav.logs', requiresLevel: GROUP_ACCESS_LEVELS.auditor },
  { key: 'dicomRefusals', path: '/dicom-refusals', label: 'nav.dicomRefusals', requiresPlatformAdmin: true },
  // The platform admin's page (issue 27), before settings so that /settings/admin selects it.
  { key: 'platformAdmin', path: '/settings/admin', label: 'nav.platformAdmin', requiresPlatformAdmin: true },
  { key: 'settings', path: '/settings', label: 'nav.settings' },
  // Learning videos and help (issue 27): for everyone signed in.
  { key: 'learning', path: '/learning', label: 'nav.learning' },
  { key: 'help', path: '/help', label: 'nav.help' },
];

/**
 * The entries a user sees: account administration only for security admins and the operation log
 * only for auditors of some group (levels from GET groups/mine). Until the groups arrive, or when
 * the call fails, the level-bound entries stay hidden: the server refuses those pages anyway. The
 * critical-value and quality screens show for holders of their actions in some organization
 * (GET accounts/me/permissions, through `holdsAnywhere`), hidden likewise until that is known.
 * The refused DICOM associations show to platform admins (GET accounts/me); a group's auditors
 * reach them from the operation log. The registry shows when the caller registers patients in some
 * organization (GET registry-buckets lists one); calling when the caller calls patients in some
 * organization whose group has calling on (features/calling `callingBuckets`); statistics when
 * GET buckets/allowed-statistics lists an organization (features/statistics `useAllowedStatistics`).
 */
export function visibleNavEntries(
  groups: readonly Group[] | undefined,
  holdsAnywhere: (action: string) => boolean = () => false,
  platformAdmin = false,
  registryDesk = false,
  callingDesk = false,
  statistics = false,
): NavEntry[] {
  const levels = new Set((groups ?? []).map((group) => group.accessLevel));
  return NAV_ENTRIES.filter(
    (entry) =>
      (entry.requiresLevel === undefined || levels.has(entry.requiresLevel)) &&
      (entry.requiresAnyAction === undefined || entry.requiresAnyAction.some(holdsAnywhere)) &&
      (entry.requiresPlatformAdmin !== true || platformAdmin) &&
      (entry.requiresRegistryDesk !== true || registryDesk) &&
      (entry.requiresCallingDesk !== true || callingDesk) &&
      (entry.requiresStatistics !== true || statistics) &&
      (entry.requiresGroupFlag === undefined ||
        (groups ?? []).some((group) => group.settings[entry.requiresGroupFlag!] === true)),
  );
}

export function selectedNavKey(pathname: string): NavKey[] {
  const entry = NAV_ENTRIES.find((e) => pathname === e.path || pathname.startsWith(`${e.path}/`));
  return entry ? [entry.key] : [];
}
