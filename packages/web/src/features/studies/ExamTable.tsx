import {
  AlertOutlined,
  CloudOutlined,
  EyeInvisibleOutlined,
  LockOutlined,
  PrinterOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import type { ExamItem, ExamSort } from '@yyp/contracts';
import { Space, Table, Tag, Tooltip, Typography, type TableColumnsType, type TableProps } from 'antd';
import type { SorterResult, SortOrder } from 'antd/es/table/interface';
import type { ReactNode } from 'react';
import { formatStudyTime } from '../../shared/format/dates';
import { useStudyLabels } from '../../shared/labels/studyLabels';
import { ReportStatusTag } from '../../shared/labels/ReportStatusTag';

/** Every column of the study list, by key; the user chooses which show (stored in preferences). */
export const ALL_COLUMNS = [
  'patient',
  'genderAge',
  'patientId',
  'accession',
  'modality',
  'bodyPart',
  'examTime',
  'organization',
  'source',
  'department',
  'reportStatus',
  'assignee',
  'flags',
  'tags',
  'ai',
] as const;
export type ColumnKey = (typeof ALL_COLUMNS)[number];
export const DEFAULT_COLUMNS: ColumnKey[] = [
  'patient',
  'genderAge',
  'modality',
  'bodyPart',
  'examTime',
  'organization',
  'reportStatus',
  'assignee',
  'flags',
  'tags',
];

/** Which columns sort on the server, and by which contract sort field. */
const SORT_FIELD: Partial<Record<ColumnKey, ExamSort['field']>> = {
  patient: 'patientName',
  genderAge: 'patientGender',
  patientId: 'patientId',
  accession: 'accessionNumber',
  modality: 'modality',
  bodyPart: 'bodyPart',
  examTime: 'studyDate',
  organization: 'bucketName',
  reportStatus: 'reportStatus',
  assignee: 'assigneeName',
  flags: 'urgentFlag',
};

interface ExamTableProps {
  items: ExamItem[];
  total: number;
  loading: boolean;
  columns: ColumnKey[];
  sorts: ExamSort[];
  page: number;
  pageSize: number;
  deleted: boolean;
  actions: (item: ExamItem) => ReactNode;
  empty: ReactNode;
  onPage: (page: number, pageSize: number) => void;
  onSort: (sorts: ExamSort[]) => void;
  onOpen: (item: ExamItem) => void;
  /** rows the user can tick (printing sheets) */
  rowSelection?: TableProps<ExamItem>['rowSelection'];
}

export function ExamTable(props: ExamTableProps) {
  const { t, col: colLabel, gender, source, ai, age, personName } = useStudyLabels();
  const order = (key: ColumnKey): SortOrder => {
    const field = SORT_FIELD[key];
    const s = props.sorts.find((x) => x.field === field);
    return s ? (s.direction === 'asc' ? 'ascend' : 'descend') : null;
  };
  const col = (
    key: ColumnKey,
    render: (e: ExamItem) => ReactNode,
    width?: number,
  ): TableColumnsType<ExamItem>[number] => ({
    key,
    title: colLabel(key),
    render: (_: unknown, e: ExamItem) => render(e),
    ...(width ? { width } : {}),
    ...(SORT_FIELD[key] && !props.deleted ? { sorter: true, sortOrder: order(key) } : {}),
  });

  const flags = (e: ExamItem) => (
    <Space size={4}>
      {e.urgentFlag && (
        <Tooltip title={t('studyList.flags.urgent')}>
          <ThunderboltOutlined className="yyp-flag yyp-flag--urgent" aria-label={t('studyList.flags.urgent')} />
        </Tooltip>
      )}
      {e.teleMedFlag && (
        <Tooltip title={t('studyList.flags.tele')}>
          <CloudOutlined className="yyp-flag" aria-label={t('studyList.flags.tele')} />
        </Tooltip>
      )}
      {e.printed && (
        <Tooltip title={t('studyList.flags.printed')}>
          <PrinterOutlined className="yyp-flag" aria-label={t('studyList.flags.printed')} />
        </Tooltip>
      )}
      {e.critical && (
        <Tooltip title={t('studyList.flags.critical')}>
          <AlertOutlined className="yyp-flag yyp-flag--critical" aria-label={t('studyList.flags.critical')} />
        </Tooltip>
      )}
      {e.isPrivacy && (
        <Tooltip title={t('studyList.flags.confidential')}>
          <LockOutlined className="yyp-flag" aria-label={t('studyList.flags.confidential')} />
        </Tooltip>
      )}
    </Space>
  );

  const renderers: Record<ColumnKey, TableColumnsType<ExamItem>[number]> = {
    patient: col(
      'patient',
      (e) => (
        <Space size={4}>
          <Typography.Link onClick={() => props.onOpen(e)} className="yyp-patient-name">
            {personName(e.patientName) || '—'}
          </Typography.Link>
          {e.masked && (
            <Tooltip title={t('studyList.flags.masked')}>
              <EyeInvisibleOutlined className="yyp-flag" />
            </Tooltip>
          )}
        </Space>
      ),
      160,
    ),
    genderAge: col('genderAge', (e) => `${gender(e.patientGender) || '—'} / ${age(e.age)}`, 110),
    patientId: col('patientId', (e) => e.patientId),
    accession: col('accession', (e) => e.accessionNumber),
    modality: col('modality', (e) => e.modality.replace(/\\/g, ' / '), 90),
    bodyPart: col('bodyPart', (e) => e.bodyPart || e.studyDesc, 120),
    examTime: col('examTime', (e) => formatStudyTime(e.studyDate, e.studyTime, e.created), 150),
    organization: col('organization', (e) => e.bucketName, 120),
    source: col('source', (e) => source(e.patientSource)),
    department: col('department', (e) => e.applyDept),
    reportStatus: col(
      'reportStatus',
      (e) => <ReportStatusTag status={e.reportStatus} reportColor={e.reportColor} />,
      100,
    ),
    assignee: col('assignee', (e) => e.assigneeName ?? <Typography.Text type="secondary">—</Typography.Text>, 100),
    flags: col('flags', flags, 90),
    tags: col('tags', (e) =>
      e.tags.map((tag) => (
        <Tag key={tag.id} color={tag.color ?? undefined}>
          {tag.name}
        </Tag>
      )),
    ),
    ai: col('ai', (e) => ai(e.aiStatus)),
  };

  const shown: TableColumnsType<ExamItem> = props.columns.map((key) => renderers[key]);
  if (props.deleted) {
    shown.push(
      { key: 'deletedTime', title: t('studyList.col.deletedTime'), render: (_, e) => formatInstant(e.deletedTime) },
      {
        key: 'recoverableUntil',
        title: t('studyList.col.recoverableUntil'),
        render: (_, e) => formatInstant(e.recoverableUntil),
      },
    );
  }
  shown.push({ key: 'actions', title: t('studyList.col.actions'), fixed: 'right', render: (_, e) => props.actions(e) });

  const handleChange: TableProps<ExamItem>['onChange'] = (pagination, _filters, sorter) => {
    const one = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<ExamItem> | undefined;
    const field = one?.columnKey ? SORT_FIELD[one.columnKey as ColumnKey] : undefined;
    const next: ExamSort[] = field && one?.order ? [{ field, direction: one.order === 'ascend' ? 'asc' : 'desc' }] : [];
    if (JSON.stringify(next) !== JSON.stringify(props.sorts)) {
      props.onSort(next);
    } else {
      props.onPage(pagination.current ?? 1, pagination.pageSize ?? props.pageSize);
    }
  };

  return (
    <Table<ExamItem>
      rowKey="id"
      size="middle"
      columns={shown}
      dataSource={props.items}
      loading={props.loading}
      scroll={{ x: 'max-content' }}
      onChange={handleChange}
      {...(props.rowSelection ? { rowSelection: props.rowSelection } : {})}
      onRow={(e) => ({
        style: e.rowColor ? { color: e.rowColor.foreColor, background: e.rowColor.backgroundColor } : undefined,
        onDoubleClick: () => props.onOpen(e),
        'data-exam-id': e.id,
      })}
      pagination={{
        current: props.page,
        pageSize: props.pageSize,
        total: props.total,
        showSizeChanger: true,
        pageSizeOptions: [10, 20, 50, 100],
        showTotal: (total) => t('studyList.total', { count: total }),
      }}
      locale={{ emptyText: props.empty }}
    />
  );
}

function formatInstant(value: string | null): string {
  if (!value) {
    return '';
  }
  const d = new Date(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
