import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CriticalValuePageBody,
  HandleCriticalValueBody,
  QualityPageBody,
  ReceiveCriticalValueBody,
} from '@yyp/contracts';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  fetchCriticalValueStats,
  handleCriticalValue,
  queryQuality,
  receiveCriticalValue,
} from '../../api/reportSafety';
import { queryCriticalValuePage } from '../../api/safetyReview';
import { useNotify } from '../../shared/notify/useNotify';
import { usePermissions } from '../../shared/permissions/permissions';
import { useAccessibleOrganizations } from '../../shared/queries/studyQueries';
import { safetyKeys } from '../../shared/queries/safetyKeys';

export const reviewKeys = {
  critical: ['critical-values'] as const,
  criticalPage: (body: CriticalValuePageBody) => ['critical-values', 'page', body] as const,
  criticalStats: (bucketId: string, from: string, to: string) =>
    ['critical-values', 'stats', bucketId, from, to] as const,
  quality: (bucketId: string, body: QualityPageBody) => ['quality', 'page', bucketId, body] as const,
};

export { CRITICAL_LIST_ACTIONS, QUALITY_REVIEW_ACTIONS } from '@yyp/contracts';

/** The report page of a report (a report's id is its primary exam's id). */
export const reportPath = (reportId: string) =>
  `/studies/${encodeURIComponent(reportId)}/reports/${encodeURIComponent(reportId)}`;

/** A picked range of local days as instants [from, to): the server takes instants with offsets. */
export function periodOf(range: [Dayjs | null, Dayjs | null] | null): { from?: string; to?: string } {
  const [start, end] = range ?? [null, null];
  return {
    ...(start ? { from: start.startOf('day').toISOString() } : {}),
    ...(end ? { to: end.add(1, 'day').startOf('day').toISOString() } : {}),
  };
}

/** The accessible organizations where the caller holds one of `actions`, for an organization filter. */
export function useOrganizationsWith(actions: readonly string[]) {
  const organizations = useAccessibleOrganizations();
  const { can } = usePermissions();
  return {
    ...organizations,
    data: organizations.data?.filter((o) => actions.some((a) => can(o.id, a))),
  };
}

export function useCriticalValuePage(body: CriticalValuePageBody) {
  return useQuery({
    queryKey: reviewKeys.criticalPage(body),
    queryFn: ({ signal }) => queryCriticalValuePage(body, signal),
    placeholderData: keepPreviousData,
  });
}

/** The statistics endpoint (critical_value_stats), asked only when the caller holds it there. */
export function useCriticalValueStats(bucketId: string | undefined, from: string, to: string) {
  return useQuery({
    queryKey: reviewKeys.criticalStats(bucketId ?? '', from, to),
    queryFn: ({ signal }) => fetchCriticalValueStats({ bucketId: bucketId ?? '', from, to }, signal),
    enabled: Boolean(bucketId),
  });
}

/**
 * Recording the read-back and the handling from the list. After either (or a refusal: someone
 * else may have moved the value on) the list and the report's own section are refreshed.
 */
export function useCriticalFollowUp() {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const refresh = (reportId: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: reviewKeys.critical }),
      queryClient.invalidateQueries({ queryKey: safetyKeys.critical(reportId) }),
    ]);
  const settle = (done: string) => ({
    onSuccess: async (_: unknown, v: { reportId: string }) => {
      notify.success(done);
      await refresh(v.reportId);
    },
    onError: async (error: unknown, v: { reportId: string }) => {
      notify.error(error);
      await refresh(v.reportId);
    },
  });
  const receive = useMutation({
    mutationFn: ({ reportId, id, body }: { reportId: string; id: string; body: ReceiveCriticalValueBody }) =>
      receiveCriticalValue(reportId, id, body),
    ...settle(t('reportSafety.critical.receivedDone')),
  });
  const handle = useMutation({
    mutationFn: ({ reportId, id, body }: { reportId: string; id: string; body: HandleCriticalValueBody }) =>
      handleCriticalValue(reportId, id, body),
    ...settle(t('reportSafety.critical.handledDone')),
  });
  return { receive, handle };
}

/** bucketId undefined: every organization where the caller reviews quality. */
export function useQualityPage(bucketId: string | undefined, body: QualityPageBody, enabled: boolean) {
  return useQuery({
    queryKey: reviewKeys.quality(bucketId ?? '', body),
    queryFn: ({ signal }) => queryQuality(bucketId, body, signal),
    enabled,
    placeholderData: keepPreviousData,
  });
}
