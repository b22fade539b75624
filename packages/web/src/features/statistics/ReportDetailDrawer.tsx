import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { hospitalDateTime, type StatQueryInput, type StatReportDetailItem } from '@yyp/contracts';
import { Alert, Drawer, Segmented, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../api/errorMessage';
import { fetchReportDetail } from '../../api/statistics';

export type DetailRole = 'written' | 'approved';
const PAGE_SIZE = 20;

/** The exam's page: its report (a report's id is its primary exam's). */
const examPath = (examId: string) => `/studies/${encodeURIComponent(examId)}/reports/${encodeURIComponent(examId)}`;

/**
 * Drill-down from a doctor's row or bar (issue 26): the doctor's reports of the period
 * (statistics/report-detail with the doctor, the role and the same organizations), each exam
 * opening its page.
 */
export function ReportDetailDrawer({
  doctor,
  query,
  initialRole,
  onClose,
}: {
  doctor: { id: string; name: string } | null;
  query: StatQueryInput;
  initialRole: DetailRole;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [role, setRole] = useState<DetailRole>(initialRole);
  const [page, setPage] = useState(1);
  const detailQuery = { ...query, doctorId: doctor?.id, role, skip: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE };
  const detail = useQuery({
    queryKey: ['statistics', 'report-detail', detailQuery],
    queryFn: ({ signal }) => fetchReportDetail(detailQuery, signal),
    enabled: doctor !== null,
    placeholderData: keepPreviousData,
  });
  const person = (p: StatReportDetailItem['writer']) => p?.name ?? '';

  return (
    <Drawer
      open={doctor !== null}
      onClose={onClose}
      size="large"
      title={t('statistics.detail.title', { name: doctor?.name ?? '' })}
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Segmented<DetailRole>
          value={role}
          onChange={(next) => {
            setRole(next);
            setPage(1);
          }}
          options={(['written', 'approved'] as const).map((r) => ({
            value: r,
            label: t(`statistics.detail.role.${r}`),
          }))}
        />
        {detail.error ? (
          <Alert type="error" showIcon title={errorMessage(t, detail.error)} />
        ) : (
          <>
            <Typography.Text type="secondary">
              {t('statistics.detail.total', { count: detail.data?.total ?? 0 })}
            </Typography.Text>
            <Table<StatReportDetailItem>
              size="small"
              rowKey="examId"
              loading={detail.isFetching}
              dataSource={detail.data?.items ?? []}
              scroll={{ x: 'max-content' }}
              pagination={{ current: page, pageSize: PAGE_SIZE, total: detail.data?.total ?? 0, onChange: setPage }}
              columns={[
                {
                  title: t('statistics.detail.patient'),
                  key: 'patient',
                  render: (_, item) => <Link to={examPath(item.examId)}>{item.patientName || item.examId}</Link>,
                },
                { title: t('statistics.detail.accessionNumber'), dataIndex: 'accessionNumber' },
                { title: t('statistics.detail.modality'), dataIndex: 'modality' },
                { title: t('statistics.detail.bodyPart'), dataIndex: 'bodyPart' },
                { title: t('statistics.detail.organization'), dataIndex: 'bucketName' },
                { title: t('statistics.detail.writer'), key: 'writer', render: (_, item) => person(item.writer) },
                { title: t('statistics.detail.approver'), key: 'approver', render: (_, item) => person(item.approver) },
                {
                  title: t('statistics.detail.approvedAt'),
                  dataIndex: 'approvedAt',
                  render: (at: string) => hospitalDateTime(new Date(at)).slice(0, 16),
                },
                {
                  title: t('statistics.detail.positive'),
                  dataIndex: 'positive',
                  render: (positive: boolean | null) =>
                    positive === null
                      ? t('statistics.detail.unknown')
                      : t(positive ? 'statistics.detail.yes' : 'statistics.detail.no'),
                },
              ]}
            />
          </>
        )}
      </Space>
    </Drawer>
  );
}
