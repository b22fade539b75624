import { QUALITY_LEVELS, type QualityLevel, type QualityPageBody, type QualityPageItem } from '@yyp/contracts';
import { Card, Empty, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { PageHeading } from '../../ui/PageHeading';
import { PageSpinner } from '../../ui/PageSpinner';
import { formatWhen } from '../../shared/safety/safetyFormat';
import { useStudyLabels } from '../../shared/labels/studyLabels';
import { OrganizationFilter, PeriodFilter, ReviewTable, StudyLine, useReviewPaging, type Range } from './ReviewList';
import { QUALITY_REVIEW_ACTIONS, periodOf, reportPath, useOrganizationsWith, useQualityPage } from './useSafetyReview';
import './safetyReview.css';
import { usePersonName } from '../../ui/usePersonName';

const LEVEL_COLOR: Record<QualityLevel, string> = { A: 'green', B: 'blue', C: 'orange', D: 'red' };

/**
 * /quality: the graded reports of the organizations where the caller reviews quality (all of them
 * unless one is picked), newest grading first, filtered by grade and grading period; a row opens
 * its report.
 */
export function QualityReviewPage() {
  const { t } = useTranslation();
  const personName = usePersonName();
  const labels = useStudyLabels();
  const navigate = useNavigate();
  const organizations = useOrganizationsWith(QUALITY_REVIEW_ACTIONS);
  // '' is every organization where the caller reviews quality, the default (issue 20 item 7).
  const [picked, setPicked] = useState('');
  const [level, setLevel] = useState<QualityLevel | ''>('');
  const [range, setRange] = useState<Range>(null);
  const paging = useReviewPaging();
  const { handleFilter } = paging;
  const reviewed = organizations.data ?? [];
  const bucketId = picked || undefined;
  const body: QualityPageBody = {
    ...(level ? { level } : {}),
    ...periodOf(range),
    ...paging.window,
  };
  const list = useQualityPage(bucketId, body, reviewed.length > 0);

  const columns: TableColumnsType<QualityPageItem> = [
    {
      key: 'level',
      title: t('safetyReview.quality.level'),
      render: (_, r) => <Tag color={LEVEL_COLOR[r.level]}>{t(`reportSafety.quality.levels.${r.level}`)}</Tag>,
    },
    {
      key: 'gradedAt',
      title: t('safetyReview.quality.gradedAt'),
      render: (_, r) => formatWhen(r.updatedAt),
    },
    {
      key: 'patient',
      title: t('safetyReview.patient'),
      render: (_, r) => (
        <div>
          <Link to={reportPath(r.reportId)} onClick={(e) => e.stopPropagation()}>
            <strong>{personName(r.patientName)}</strong>
          </Link>
          <StudyLine row={r} />
        </div>
      ),
    },
    {
      key: 'organization',
      title: t('safetyReview.organization'),
      render: (_, r) => r.bucketName,
    },
    {
      key: 'reportStatus',
      title: t('safetyReview.quality.reportStatus'),
      render: (_, r) => labels.status(r.reportStatus),
    },
    {
      key: 'reviewer',
      title: t('safetyReview.quality.reviewer'),
      render: (_, r) => r.creator?.name || '—',
    },
    {
      key: 'suggestion',
      title: t('safetyReview.quality.suggestion'),
      render: (_, r) =>
        r.suggestion ? (
          <Typography.Paragraph className="yyp-review__suggestion" ellipsis={{ rows: 2, tooltip: r.suggestion }}>
            {r.suggestion}
          </Typography.Paragraph>
        ) : (
          '—'
        ),
    },
    {
      key: 'items',
      title: t('safetyReview.quality.items'),
      render: (_, r) =>
        r.unsatisfactoryItems.length ? (
          <Space size={[4, 4]} wrap className="yyp-review__items">
            {r.unsatisfactoryItems.map((item) => (
              <Tag key={item}>{item}</Tag>
            ))}
          </Space>
        ) : (
          '—'
        ),
    },
  ];

  if (organizations.isPending) {
    return <PageSpinner />;
  }
  return (
    <div className="yyp-page yyp-review">
      <PageHeading title={t('safetyReview.quality.title')} description={t('safetyReview.quality.subtitle')} />
      <Card variant="borderless">
        {organizations.isError ? (
          <LoadFailedAlert error={organizations.error} onRetry={() => void organizations.refetch()} />
        ) : reviewed.length === 0 ? (
          <Empty description={t('safetyReview.quality.noOrganization')} />
        ) : (
          <>
            <Space wrap className="yyp-review__filters">
              <OrganizationFilter value={picked} onChange={handleFilter(setPicked)} organizations={reviewed} />
              <Select<QualityLevel | ''>
                value={level}
                onChange={handleFilter(setLevel)}
                style={{ width: 160 }}
                aria-label={t('safetyReview.quality.level')}
                options={[
                  { value: '', label: t('safetyReview.quality.allLevels') },
                  ...QUALITY_LEVELS.map((l) => ({ value: l, label: t(`reportSafety.quality.levels.${l}`) })),
                ]}
              />
              <PeriodFilter value={range} onChange={handleFilter<Range>(setRange)} />
            </Space>
            <ReviewTable<QualityPageItem>
              list={list}
              rowKey="reportId"
              columns={columns}
              empty={t('safetyReview.quality.empty')}
              paging={paging}
              rowClassName="yyp-review__clickable"
              onRow={(r) => ({ onClick: () => void navigate(reportPath(r.reportId)) })}
            />
          </>
        )}
      </Card>
    </div>
  );
}
