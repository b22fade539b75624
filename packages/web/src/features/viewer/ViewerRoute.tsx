import { useQuery } from '@tanstack/react-query';
import { Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { hasCode, isApiError } from '../../api/errors';
import { errorMessage } from '../../api/errorMessage';
import { fetchViewerContext } from '../../api/viewer';
import { PageSpinner } from '../../ui/PageSpinner';
import { ViewerWorkspace } from './ViewerWorkspace';
import './viewer.css';
import { usePersonName } from '../../ui/usePersonName';

/**
 * /viewer/{openpath}?rsuid=… (spec 000 §2): the study the signed openpath names. The page is its
 * own chunk with Cornerstone3D, so the study list never loads the imaging engine.
 */
export function ViewerRoute() {
  const { openpath = '' } = useParams();
  // opened from a consultation: shared viewing in its room (issue 25)
  const [search] = useSearchParams();
  const consultationId = search.get('consultation');
  const { t } = useTranslation();
  const personName = usePersonName();
  const context = useQuery({
    queryKey: ['viewer', 'context', openpath],
    queryFn: () => fetchViewerContext(openpath),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    performance.mark('yyp-viewer:open');
  }, []);
  useEffect(() => {
    if (context.data) {
      document.title = `${personName(context.data.patientName)} ${context.data.studyDate} — ${t('viewer.title')}`;
    }
  }, [context.data, t, personName]);

  if (context.isPending) return <PageSpinner fullScreen />;
  if (context.isError) {
    const expired =
      hasCode(context.error, 'LinkInvalid') || (isApiError(context.error) && context.error.status === 401);
    return (
      <Result
        status={expired ? 'warning' : 'error'}
        title={expired ? t('viewer.linkExpired') : t('viewer.openFailed')}
        subTitle={expired ? t('viewer.linkExpiredHint') : errorMessage(t, context.error)}
      />
    );
  }
  return <ViewerWorkspace openpath={openpath} context={context.data} consultationId={consultationId} />;
}
