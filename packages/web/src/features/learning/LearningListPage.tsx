import { PlayCircleOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { LEARNING_PAGE_SIZE } from '@yyp/contracts';
import { Card, Empty, Pagination, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fetchLearnings } from '../../api/learnings';
import { formatBytes } from '../../ui/formatBytes';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { PageHeading } from '../../ui/PageHeading';
import { formatDuration } from './learningFormat';
import './learning.css';

/** /learning (navbar "Learning videos"): the published training videos in their order; each opens /learning/{id}. */
export function LearningListPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['learnings', 'list', page],
    queryFn: ({ signal }) =>
      fetchLearnings({ skip: (page - 1) * LEARNING_PAGE_SIZE, limit: LEARNING_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });

  return (
    <div className="yyp-page">
      <PageHeading title={t('learning.title')} description={t('learning.description')} />
      {list.error ? (
        <LoadFailedAlert error={list.error} onRetry={() => void list.refetch()} />
      ) : list.isPending ? (
        <Spin />
      ) : list.data.items.length === 0 ? (
        <Empty description={t('learning.empty')} />
      ) : (
        <>
          <ul className="yyp-learning-grid" aria-label={t('learning.title')}>
            {list.data.items.map((item) => (
              <li key={item.id} style={{ listStyle: 'none' }}>
                <Card
                  variant="borderless"
                  title={item.title}
                  extra={
                    <Link to={`/learning/${item.id}`} aria-label={`${t('learning.watch')}: ${item.title}`}>
                      <PlayCircleOutlined /> {t('learning.watch')}
                    </Link>
                  }
                >
                  {item.description && (
                    <Typography.Paragraph ellipsis={{ rows: 3 }} type="secondary">
                      {item.description}
                    </Typography.Paragraph>
                  )}
                  <div className="yyp-learning-card__meta">
                    {item.durationSeconds !== null && <Tag>{formatDuration(t, item.durationSeconds)}</Tag>}
                    <Tag>{formatBytes(item.size)}</Tag>
                    {!item.published && <Tag color="orange">{t('learning.draft')}</Tag>}
                  </div>
                </Card>
              </li>
            ))}
          </ul>
          {list.data.count > LEARNING_PAGE_SIZE && (
            <Pagination
              current={page}
              pageSize={LEARNING_PAGE_SIZE}
              total={list.data.count}
              onChange={setPage}
              showSizeChanger={false}
              style={{ marginTop: 16 }}
            />
          )}
        </>
      )}
    </div>
  );
}
