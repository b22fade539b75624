import { ArrowDownOutlined, ArrowUpOutlined, FileExcelOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import type { Procedure } from '@yyp/contracts';
import { Button, Input, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resortProcedures } from '../../../api/procedures';
import { editDeleteColumn } from '../../../shared/rules/RuleTableCard';
import { QueryTable } from '../../../ui/QueryTable';
import { ProcedureDrawer } from './ProcedureDrawer';
import { ProcedureImportModal } from './ProcedureImportModal';
import { matchesSearch, movedIds, yuanText } from './procedureForm';
import { useDeleteRow, useListChange, useProcedureList, useRefreshProcedureLists } from './useProcedureLists';

interface ProcedureListPanelProps {
  bucketId: string;
  canManage: boolean;
}

/** The organization's procedures in their order: search, add, edit, delete, move up or down, import. */
export function ProcedureListPanel({ bucketId, canManage }: ProcedureListPanelProps) {
  const { t } = useTranslation();
  const procedures = useProcedureList(bucketId, 'procedures');
  const devices = useProcedureList(bucketId, 'devices');
  const deviceGroups = useProcedureList(bucketId, 'deviceGroups');
  const modalities = useProcedureList(bucketId, 'modalityDictionary');
  const refresh = useRefreshProcedureLists(bucketId);
  const remove = useDeleteRow(bucketId, 'procedures');
  const resort = useMutation({ mutationFn: (ids: string[]) => resortProcedures(bucketId, ids) });
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Procedure | 'new' | null>(null);
  const [importing, setImporting] = useState(false);

  const all = procedures.data ?? [];
  const rows = all.filter((p) => matchesSearch(p, search));
  const searching = search.trim() !== '';
  const groupName = new Map((deviceGroups.data ?? []).map((g) => [g.id, g.name]));
  const modalityName = new Map((modalities.data ?? []).map((m) => [m.modalityCode, m.displayName]));
  const flag = (on: boolean) => (on ? t('procedures.yes') : t('procedures.no'));

  const change = useListChange(bucketId);

  async function handleDelete(procedure: Procedure) {
    await change(() => remove.mutateAsync(procedure.id), t('procedures.deleted', { name: procedure.name }));
  }

  async function handleMove(procedure: Procedure, step: -1 | 1) {
    const ids = movedIds(
      all.map((p) => p.id),
      procedure.id,
      step,
    );
    if (!ids) {
      return;
    }
    await change(() => resort.mutateAsync(ids), t('procedures.reordered'));
  }

  async function handleSaved() {
    setEditing(null);
    await refresh();
  }

  const columns: TableColumnsType<Procedure> = [
    { key: 'sort', title: t('procedures.fields.sort'), width: 64, render: (_, p) => all.indexOf(p) + 1 },
    { key: 'name', dataIndex: 'name', title: t('procedures.fields.name'), width: 160, fixed: 'start' },
    { key: 'code', dataIndex: 'code', title: t('procedures.fields.code'), width: 110 },
    { key: 'enName', dataIndex: 'enName', title: t('procedures.fields.enName'), width: 160 },
    {
      key: 'modality',
      title: t('procedures.fields.modality'),
      width: 110,
      render: (_, p) => (
        <Tooltip title={modalityName.get(p.modality)}>
          <Tag>{p.modality}</Tag>
        </Tooltip>
      ),
    },
    {
      key: 'price',
      title: t('procedures.fields.price'),
      width: 110,
      align: 'right',
      render: (_, p) => yuanText(p.price),
    },
    { key: 'scanTech', dataIndex: 'scanTech', title: t('procedures.fields.scanTech'), width: 120 },
    { key: 'isEnhanced', title: t('procedures.fields.isEnhanced'), width: 80, render: (_, p) => flag(p.isEnhanced) },
    {
      key: 'bodyPartCount',
      dataIndex: 'bodyPartCount',
      title: t('procedures.fields.bodyPartCount'),
      width: 90,
      align: 'right',
    },
    { key: 'aeTitle', title: t('procedures.fields.aeTitle'), width: 110, render: (_, p) => p.aeTitle || '—' },
    {
      key: 'deviceGroups',
      title: t('procedures.fields.deviceGroups'),
      width: 160,
      render: (_, p) =>
        p.deviceGroupIds.length === 0
          ? '—'
          : p.deviceGroupIds.map((id) => <Tag key={id}>{groupName.get(id) ?? id}</Tag>),
    },
    {
      key: 'steps',
      title: t('procedures.fields.steps'),
      width: 180,
      render: (_, p) => (p.steps.length === 0 ? '—' : p.steps.join(' → ')),
    },
    {
      key: 'reportDuringExam',
      title: t('procedures.fields.reportDuringExam'),
      width: 110,
      render: (_, p) => flag(p.reportDuringExam),
    },
    {
      key: 'showLocalVideo',
      title: t('procedures.fields.showLocalVideo'),
      width: 110,
      render: (_, p) => flag(p.showLocalVideo),
    },
    ...(canManage && !searching
      ? [
          {
            key: 'order',
            title: '',
            width: 84,
            render: (_: unknown, p: Procedure) => {
              const at = all.indexOf(p);
              return (
                <Space size={0}>
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowUpOutlined />}
                    aria-label={t('procedures.moveUp')}
                    disabled={at <= 0 || resort.isPending}
                    onClick={() => void handleMove(p, -1)}
                  />
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowDownOutlined />}
                    aria-label={t('procedures.moveDown')}
                    disabled={at >= all.length - 1 || resort.isPending}
                    onClick={() => void handleMove(p, 1)}
                  />
                </Space>
              );
            },
          },
        ]
      : []),
    ...(canManage
      ? [
          editDeleteColumn<Procedure>(t, {
            onEdit: setEditing,
            onDelete: handleDelete,
            deleteConfirm: (name) => t('procedures.deleteConfirm', { name }),
            width: 130,
          }),
        ]
      : []),
  ];

  return (
    <div className="yyp-procedures">
      <div className="yyp-procedures__toolbar">
        <Input.Search
          allowClear
          placeholder={t('procedures.search')}
          aria-label={t('procedures.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          className="yyp-procedures__search"
        />
        {canManage && searching && <Typography.Text type="secondary">{t('procedures.reorderOff')}</Typography.Text>}
        {canManage && (
          <Space>
            <Button icon={<FileExcelOutlined />} onClick={() => setImporting(true)}>
              {t('procedures.import.action')}
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('procedures.add')}
            </Button>
          </Space>
        )}
      </div>
      <QueryTable<Procedure>
        query={{ ...procedures, data: rows }}
        rowKey="id"
        size="small"
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: searching && all.length > 0 ? t('procedures.noMatch') : t('procedures.empty') }}
        aria-label={t('procedures.sections.procedures')}
      />
      {canManage && (
        <>
          <ProcedureDrawer
            bucketId={bucketId}
            procedure={editing === 'new' ? null : editing}
            open={editing !== null}
            modalities={modalities.data ?? []}
            devices={devices.data ?? []}
            deviceGroups={deviceGroups.data ?? []}
            onClose={() => setEditing(null)}
            onSaved={handleSaved}
          />
          <ProcedureImportModal
            bucketId={bucketId}
            open={importing}
            onClose={() => setImporting(false)}
            onImported={refresh}
          />
        </>
      )}
    </div>
  );
}
