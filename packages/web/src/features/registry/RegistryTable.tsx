import {
  deskActions,
  hospitalDate,
  type RegistryAction,
  type RegistryBucket,
  type RegistryItem,
  type RegistryPage,
} from '@yyp/contracts';
import { Button, Space, Table, Tag, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../shared/format/dates';
import { ageInYears, STATUS_COLORS } from './registryView';

/** The row actions a person may take, in the order the buttons show; `edit` stands for schedule/update. */
const ROW_ACTIONS = ['arrive', 'confirm', 'cancelArrival', 'revoke', 'delete'] as const;
export type RowAction = (typeof ROW_ACTIONS)[number] | 'edit';

/** What the status machine lets the caller do on a row (contracts deskActions). */
export function rowActions(row: RegistryItem, bucket: RegistryBucket): RowAction[] {
  const allowed = new Set<RegistryAction>(
    deskActions(row.status, new Set(bucket.actions), { imagingOptional: row.imagingOptional }),
  );
  const actions: RowAction[] = ROW_ACTIONS.filter((a) => allowed.has(a));
  if (allowed.has('update') || allowed.has('schedule')) actions.push('edit');
  return actions;
}

interface RegistryTableProps {
  bucket: RegistryBucket;
  page: RegistryPage | undefined;
  loading: boolean;
  current: number;
  pageSize: number;
  onPage: (page: number) => void;
  selected: string[];
  onSelect: (ids: string[]) => void;
  onAction: (action: RowAction, row: RegistryItem) => void;
  busy: boolean;
  /** more of a row's actions after the status machine's (printing its label and referral form) */
  extraActions?: (row: RegistryItem) => ReactNode;
}

/** The organization's scheduled exams, one row each, with the actions its status allows. */
export function RegistryTable(props: RegistryTableProps) {
  const { t } = useTranslation();
  const today = hospitalDate(new Date());
  const columns: TableProps<RegistryItem>['columns'] = [
    {
      key: 'status',
      title: t('registry.column.status'),
      render: (_, row) => (
        <Space size={4}>
          <Tag color={STATUS_COLORS[row.status]}>{t(`registry.status.${row.status}`)}</Tag>
          {row.urgent && <Tag color="red">{t('registry.urgent')}</Tag>}
        </Space>
      ),
    },
    {
      key: 'patient',
      title: t('registry.column.patient'),
      render: (_, row) => {
        const age = ageInYears(row.patient.birthDate, today);
        return (
          <Space size={4} wrap>
            <span>{row.patient.name}</span>
            <span className="yyp-muted">{t(`registry.form.genders.${row.patient.gender as 'M'}`)}</span>
            {age !== null && <span className="yyp-muted">{t('registry.age', { years: age })}</span>}
          </Space>
        );
      },
    },
    { key: 'accession', title: t('registry.column.accession'), dataIndex: 'accessionNumber' },
    {
      key: 'procedure',
      title: t('registry.column.procedure'),
      render: (_, row) => [row.procedureName || row.modality, row.bodyPart].filter(Boolean).join(' · '),
    },
    {
      key: 'device',
      title: t('registry.column.device'),
      // no device chosen: the station its procedure names (AE title), if any
      render: (_, row) => row.deviceName || row.stationAeTitle,
    },
    {
      key: 'scheduled',
      title: t('registry.column.scheduled'),
      render: (_, row) => <span className="yyp-nowrap">{`${row.scheduledDate} ${row.scheduledTime}`.trim()}</span>,
    },
    { key: 'source', title: t('registry.column.source'), render: (_, row) => t(`registry.source.${row.source}`) },
    { key: 'registrar', title: t('registry.column.registrar'), dataIndex: 'registrarName' },
    {
      key: 'arrivedAt',
      title: t('registry.column.arrivedAt'),
      render: (_, row) => <span className="yyp-nowrap">{formatTime(row.arrivedAt)}</span>,
    },
    {
      key: 'actions',
      title: t('registry.column.actions'),
      render: (_, row) => (
        <Space size={0} wrap>
          {rowActions(row, props.bucket).map((action) => (
            <Button
              key={action}
              type="link"
              size="small"
              danger={action === 'delete' || action === 'revoke'}
              disabled={props.busy}
              onClick={() => props.onAction(action, row)}
            >
              {t(`registry.action.${action}`)}
            </Button>
          ))}
          {props.extraActions?.(row)}
        </Space>
      ),
    },
  ];
  return (
    <Table<RegistryItem>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={props.page?.items ?? []}
      loading={props.loading}
      locale={{ emptyText: t('registry.empty') }}
      rowSelection={{
        selectedRowKeys: props.selected,
        preserveSelectedRowKeys: true,
        onChange: (keys) => props.onSelect(keys.map(String)),
      }}
      pagination={{
        current: props.current,
        pageSize: props.pageSize,
        total: props.page?.count ?? 0,
        showSizeChanger: false,
        onChange: props.onPage,
      }}
    />
  );
}
