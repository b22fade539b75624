import { useQuery } from '@tanstack/react-query';
import { hospitalDateTime, type TurnaroundSlowest } from '@yyp/contracts';
import { Alert, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../api/errorMessage';
import { fetchTurnaroundSlowest, type TurnaroundQueryInput } from '../../api/statistics';

type Item = TurnaroundSlowest['slowest'][number];
const examPath = (examId: string) => `/studies/${encodeURIComponent(examId)}/reports/${encodeURIComponent(examId)}`;

/** The turnaround's slowest exams of the period and the exams past the group's target now, each opening its page. */
export function TurnaroundLists({ query }: { query: TurnaroundQueryInput }) {
  const { t } = useTranslation();
  const lists = useQuery({
    queryKey: ['statistics', 'turnaround', 'slowest', query],
    queryFn: ({ signal }) => fetchTurnaroundSlowest(query, signal),
  });
  if (lists.error) return <Alert type="error" showIcon title={errorMessage(t, lists.error)} />;
  const at = (iso: string | null) =>
    iso ? hospitalDateTime(new Date(iso)).slice(0, 16) : t('statistics.turnaround.waiting');
  const table = (items: Item[]) => (
    <Table<Item>
      size="small"
      rowKey="examId"
      loading={lists.isFetching}
      pagination={false}
      className="yyp-stat-table"
      scroll={{ x: true }}
      dataSource={items}
      columns={[
        {
          title: t('statistics.turnaround.patient'),
          key: 'patient',
          render: (_, item) => <Link to={examPath(item.examId)}>{item.patientName || item.examId}</Link>,
        },
        { title: t('statistics.turnaround.accessionNumber'), dataIndex: 'accessionNumber' },
        { title: t('statistics.turnaround.modality'), dataIndex: 'modality' },
        { title: t('statistics.turnaround.room'), dataIndex: 'room' },
        { title: t('statistics.turnaround.doctor'), dataIndex: 'doctor' },
        { title: t('statistics.turnaround.fromAt'), dataIndex: 'fromAt', render: at },
        { title: t('statistics.turnaround.toAt'), dataIndex: 'toAt', render: at },
        {
          title: t('statistics.turnaround.minutes'),
          dataIndex: 'minutes',
          align: 'right',
          render: (m: number) => Math.round(m),
        },
      ]}
    />
  );
  const target = lists.data?.targetMinutes ?? null;
  return (
    <>
      <Typography.Title level={5}>{t('statistics.turnaround.slowest')}</Typography.Title>
      {table(lists.data?.slowest ?? [])}
      <Typography.Title level={5}>{t('statistics.turnaround.overdue')}</Typography.Title>
      <Typography.Text type="secondary">
        {target === null ? t('statistics.turnaround.noTarget') : t('statistics.turnaround.target', { minutes: target })}
      </Typography.Text>
      {table(lists.data?.overdue ?? [])}
    </>
  );
}
