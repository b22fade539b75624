import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { hasCode } from '../../api/errors';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { PageSpinner } from '../../ui/PageSpinner';
import { ConsultationView } from './ConsultationView';
import { useConsultation } from './useConsultation';

/**
 * /consultations/{id}, and /consultations/{id}/related/{linkId}: the linked history consultation,
 * read only through its link, with a way back to the consultation.
 */
export function ConsultationDetailPage() {
  const { t } = useTranslation();
  const { id = '', linkId } = useParams();
  const detail = useConsultation(id, linkId);
  if (detail.isPending) return <PageSpinner />;
  if (detail.error) {
    if (hasCode(detail.error, 'NotFound')) return <Result status="404" title={t('consultations.detail.notFound')} />;
    return <LoadFailedAlert error={detail.error} onRetry={() => void detail.refetch()} />;
  }
  const back = linkId
    ? { to: `/consultations/${encodeURIComponent(id)}`, label: t('consultations.detail.backToConsultation') }
    : { to: '/consultations', label: t('consultations.detail.back') };
  return <ConsultationView key={detail.data.id} detail={detail.data} readOnly={Boolean(linkId)} back={back} />;
}
