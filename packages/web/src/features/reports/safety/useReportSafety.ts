import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  HandleCriticalValueBody,
  QualityUpsertBody,
  ReceiveCriticalValueBody,
  ReportCriticalValueBody,
  ReportRatingBody,
} from '@yyp/contracts';
import { useTranslation } from 'react-i18next';
import {
  commentReport,
  deleteReportComment,
  deleteReportQuality,
  fetchCriticalValues,
  fetchReportComments,
  fetchReportQuality,
  fetchReportRatings,
  handleCriticalValue,
  rateReport,
  receiveCriticalValue,
  reportCriticalValue,
  saveReportQuality,
} from '../../../api/reportSafety';
import { useNotify } from '../../../shared/notify/useNotify';
import { safetyKeys } from '../../../shared/queries/safetyKeys';

/** After a write: refresh the list it changed; a failure is told and refreshes too (someone else moved it). */
function useSettle(key: readonly unknown[]) {
  const queryClient = useQueryClient();
  const notify = useNotify();
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  return {
    refresh,
    onError: async (error: unknown) => {
      notify.error(error);
      await refresh();
    },
    done: async (text: string) => {
      notify.success(text);
      await refresh();
    },
  };
}

/** The report's critical values and the calls that report, receive and handle them. */
export function useCriticalValues(reportId: string) {
  const { t } = useTranslation();
  const key = safetyKeys.critical(reportId);
  const settle = useSettle(key);
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchCriticalValues(reportId, signal) });
  const report = useMutation({
    mutationFn: (body: ReportCriticalValueBody) => reportCriticalValue(reportId, body),
    onSuccess: () => settle.done(t('reportSafety.critical.reported')),
    onError: settle.onError,
  });
  const receive = useMutation({
    mutationFn: ({ id, body }: { id: string; body: ReceiveCriticalValueBody }) =>
      receiveCriticalValue(reportId, id, body),
    onSuccess: () => settle.done(t('reportSafety.critical.receivedDone')),
    onError: settle.onError,
  });
  const handle = useMutation({
    mutationFn: ({ id, body }: { id: string; body: HandleCriticalValueBody }) =>
      handleCriticalValue(reportId, id, body),
    onSuccess: () => settle.done(t('reportSafety.critical.handledDone')),
    onError: settle.onError,
  });
  return { list, report, receive, handle };
}

export function useReportQuality(reportId: string) {
  const { t } = useTranslation();
  const key = safetyKeys.quality(reportId);
  const settle = useSettle(key);
  const answer = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchReportQuality(reportId, signal) });
  const save = useMutation({
    mutationFn: (body: QualityUpsertBody) => saveReportQuality(reportId, body),
    onSuccess: () => settle.done(t('reportSafety.quality.saved')),
    onError: settle.onError,
  });
  const remove = useMutation({
    mutationFn: () => deleteReportQuality(reportId),
    onSuccess: () => settle.done(t('reportSafety.quality.deleted')),
    onError: settle.onError,
  });
  return { answer, save, remove };
}

export function useReportRatings(reportId: string) {
  const { t } = useTranslation();
  const key = safetyKeys.ratings(reportId);
  const settle = useSettle(key);
  const ratings = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchReportRatings(reportId, signal) });
  const rate = useMutation({
    mutationFn: (body: ReportRatingBody) => rateReport(reportId, body),
    onSuccess: () => settle.done(t('reportSafety.rating.submitted')),
    onError: settle.onError,
  });
  return { ratings, rate };
}

export function useReportComments(reportId: string) {
  const { t } = useTranslation();
  const key = safetyKeys.comments(reportId);
  const settle = useSettle(key);
  const comments = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchReportComments(reportId, signal) });
  const add = useMutation({
    mutationFn: (text: string) => commentReport(reportId, { text }),
    onSuccess: () => settle.done(t('reportSafety.comments.added')),
    onError: settle.onError,
  });
  const remove = useMutation({
    mutationFn: (commentId: string) => deleteReportComment(reportId, commentId),
    onSuccess: () => settle.done(t('reportSafety.comments.deleted')),
    onError: settle.onError,
  });
  return { comments, add, remove };
}
