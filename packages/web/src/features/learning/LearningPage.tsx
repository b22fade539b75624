import { useQuery } from '@tanstack/react-query';
import { Button, Result, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { fetchLearning } from '../../api/learnings';
import { ApiError } from '../../api/errors';
import { useDomain } from '../../shared/domain/useDomain';
import { useSessionState } from '../../shared/session/useSessionState';
import { BrandMark } from '../../ui/BrandMark';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { formatDuration } from './learningFormat';
import './learning.css';

/**
 * /learning/{id} (spec 000 §2, a public route): plays one learning video. A visitor sees a published
 * one; a signed-in platform admin also an unpublished one. The <video> element streams from the
 * signed URL the server answers (it cannot send a bearer header), with HTTP Range requests for seeking.
 */
export function LearningPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { domain } = useDomain();
  const { session } = useSessionState();
  const learning = useQuery({
    queryKey: ['learnings', 'detail', id],
    queryFn: ({ signal }) => fetchLearning(id, signal),
    // The signed URL plays for hours: no refetch that would reload the playing video.
    staleTime: Infinity,
    retry: false,
  });
  const productName = domain.displayName || t('app.defaultName');
  const notFound = learning.error instanceof ApiError && learning.error.status === 404;

  return (
    <div className="yyp-learning-page">
      <header className="yyp-learning-page__bar">
        <Link to={session ? '/studies' : '/login'} aria-label={productName}>
          <BrandMark name={productName} logo={domain.logo || undefined} size={24} />
        </Link>
        {session ? (
          <Link to="/learning">{t('learning.allVideos')}</Link>
        ) : (
          <Link to={`/login?redirect=${encodeURIComponent(`/learning/${id}`)}`}>{t('learning.signIn')}</Link>
        )}
      </header>
      <main className="yyp-learning-page__body">
        {notFound ? (
          <Result
            status="404"
            title={t('learning.notFoundTitle')}
            subTitle={t('learning.notFound')}
            extra={
              session ? (
                <Link to="/learning">
                  <Button type="primary">{t('learning.allVideos')}</Button>
                </Link>
              ) : undefined
            }
          />
        ) : learning.error ? (
          <LoadFailedAlert error={learning.error} onRetry={() => void learning.refetch()} />
        ) : learning.isPending ? (
          <Spin />
        ) : (
          <article>
            <Typography.Title level={3}>
              {learning.data.title} {!learning.data.published && <Tag color="orange">{t('learning.draft')}</Tag>}
            </Typography.Title>
            <video
              className="yyp-learning-player"
              controls
              preload="metadata"
              playsInline
              src={learning.data.videoUrl}
              aria-label={t('learning.player', { title: learning.data.title })}
            >
              {t('learning.noVideoSupport')}
            </video>
            {learning.data.durationSeconds !== null && (
              <Typography.Text type="secondary">{formatDuration(t, learning.data.durationSeconds)}</Typography.Text>
            )}
            {learning.data.description && (
              <Typography.Paragraph className="yyp-learning-page__description">
                {learning.data.description}
              </Typography.Paragraph>
            )}
          </article>
        )}
      </main>
    </div>
  );
}
