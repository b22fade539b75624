import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Timeline } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchConsultationTraces } from '../../api/consultations';
import { formatTime } from '../../shared/format/dates';
import { tracesKey } from './useConsultation';

/** The log of every step with who and when (GET traces; spec 001 §8: traces fail silently). */
export function TracesSection({ id }: { id: string }) {
  const { t } = useTranslation();
  const traces = useQuery({
    queryKey: tracesKey(id),
    queryFn: ({ signal }) => fetchConsultationTraces(id, signal),
    retry: false,
  });
  const items = traces.data ?? [];
  return (
    <Card title={t('consultations.detail.traces')}>
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('consultations.traces.empty')} />
      ) : (
        <Timeline
          items={items.map((trace) => ({
            key: trace.id,
            children: `${formatTime(trace.at)} · ${trace.accountName} · ${t(`consultations.traces.actions.${trace.action}`, { defaultValue: trace.action })}`,
          }))}
        />
      )}
    </Card>
  );
}
