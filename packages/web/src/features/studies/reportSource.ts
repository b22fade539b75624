import {
  REPORT_SOURCE,
  reportSourceFor,
  type ExamFilter,
  type PermissionEntry,
  type ReportSource,
} from '@yyp/contracts';
import { useState } from 'react';
import { useMe } from '../../shared/account/useMe';
import { usePermissionsQuery } from '../../shared/permissions/permissions';

/**
 * The study list's report-source filter (spec 000 §6; issue 24): all, own reports, or the remote
 * copies an expert read brought into the caller's expert organization. Offered to a caller with a
 * permission entry of type 2 (an expert organization); a single such entry forces it to all
 * (reportSourceFor). Others never see it and their list is not filtered by it. The choice is kept
 * per user in this browser.
 */

export const REPORT_SOURCE_STORAGE_KEY = 'yyp.studies.reportSource';
const storageKey = (accountId: string) => `${REPORT_SOURCE_STORAGE_KEY}.${accountId}`;

export interface ReportSourceChoice {
  /** the select is shown */
  offered: boolean;
  /** forced to all: shown, disabled */
  forced: boolean;
  value: ReportSource;
}

/** Pure: what the caller's permission entries and stored choice make of the filter. */
export function reportSourceChoice(
  entries: readonly PermissionEntry[] | undefined,
  stored: ReportSource | undefined,
): ReportSourceChoice {
  const list = entries ?? [];
  const offered = list.some((e) => e.type === 2);
  if (!offered) return { offered, forced: false, value: REPORT_SOURCE.all };
  return { offered, forced: list.length === 1, value: reportSourceFor(list, stored) };
}

/** The list filter the choice stands for: none for all (or when not offered). */
export function reportSourceFilters(choice: ReportSourceChoice): ExamFilter[] {
  if (!choice.offered || choice.value === REPORT_SOURCE.all) return [];
  return [{ field: 'reportSource', operator: 'eq', values: [String(choice.value)] }];
}

const VALUES: readonly number[] = Object.values(REPORT_SOURCE);

export function readStoredReportSource(accountId: string): ReportSource | undefined {
  try {
    const raw = localStorage.getItem(storageKey(accountId));
    const n = raw === null ? NaN : Number(raw);
    return VALUES.includes(n) ? (n as ReportSource) : undefined;
  } catch {
    return undefined;
  }
}

function storeReportSource(accountId: string, value: ReportSource): void {
  try {
    localStorage.setItem(storageKey(accountId), String(value));
  } catch {
    // A browser that keeps nothing still filters this page; the choice is not remembered.
  }
}

/** The caller's report-source choice, its filters, and a setter that remembers it. */
export function useReportSource(): ReportSourceChoice & {
  /** the permissions and the account are here (or failed): until then the filter is not known */
  known: boolean;
  filters: ExamFilter[];
  choose(value: ReportSource): void;
} {
  const permissions = usePermissionsQuery();
  const me = useMe();
  const accountId = me.data?.id;
  const [picked, setPicked] = useState<Record<string, ReportSource>>({});
  const stored = accountId ? (picked[accountId] ?? readStoredReportSource(accountId)) : undefined;
  const choice = reportSourceChoice(permissions.data, stored);
  return {
    ...choice,
    known: (permissions.data !== undefined || permissions.isError) && (me.data !== undefined || me.isError),
    filters: reportSourceFilters(choice),
    choose: (value) => {
      if (!accountId || choice.forced) return;
      storeReportSource(accountId, value);
      setPicked((p) => ({ ...p, [accountId]: value }));
    },
  };
}
