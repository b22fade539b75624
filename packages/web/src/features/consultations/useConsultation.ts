import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConsultationDetail } from '@yyp/contracts';
import { App } from 'antd';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchConsultation, fetchRelatedConsultation } from '../../api/consultations';
import { hasCode } from '../../api/errors';
import { useNotify } from '../../shared/notify/useNotify';

export const consultationKey = (id: string) => ['consultations', 'detail', id] as const;
export const tracesKey = (id: string) => ['consultations', 'detail', id, 'traces'] as const;

/** The consultation, or the history consultation read through its link (read only). */
export function useConsultation(id: string, linkId?: string) {
  return useQuery({
    queryKey: linkId ? ['consultations', 'related', id, linkId] : consultationKey(id),
    queryFn: ({ signal }) => (linkId ? fetchRelatedConsultation(id, linkId, signal) : fetchConsultation(id, signal)),
    staleTime: 0,
  });
}

/**
 * What every change of the detail does with its answer: the answer is the consultation after the
 * change (shown at once, the log read again); a stale version (409 Conflict) says so and reloads.
 */
export function useDetailChange(id: string) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const applied = useCallback(
    (detail: ConsultationDetail, text?: string) => {
      queryClient.setQueryData(consultationKey(id), detail);
      void queryClient.invalidateQueries({ queryKey: tracesKey(id) });
      if (text) notify.success(text);
    },
    [id, queryClient, notify],
  );
  const reload = useCallback(() => queryClient.invalidateQueries({ queryKey: consultationKey(id) }), [id, queryClient]);
  const failed = useCallback(
    (error: unknown) => {
      if (hasCode(error, 'Conflict')) {
        void message.warning(t('consultations.detail.conflict'));
        void reload();
        return;
      }
      notify.error(error);
    },
    [message, notify, reload, t],
  );
  return useMemo(() => ({ applied, failed, reload }), [applied, failed, reload]);
}
