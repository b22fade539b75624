import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Group } from '@yyp/contracts';
import { App, Button, Card, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addConsultationTarget,
  fetchConsultationTargets,
  removeConsultationTarget,
  type ConsultationTargets,
} from '../../../api/consultations';
import { useGroupOrganizations, useUpdateGroup } from '../../../shared/groups/useGroups';
import { useNotify } from '../../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';

type Target = ConsultationTargets[number];

/**
 * The group's consultation organizations (GET/POST/DELETE groups/{id}/consultation-targets): whom its
 * members may ask, the default one (the group setting defaultConsultationBucketId) preselected in
 * the request form. An organization of another group is added by its id.
 */
export function ConsultationTargetsCard({ group }: { group: Group }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const key = ['groups', group.id, 'consultation-targets'];
  const targets = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchConsultationTargets(group.id, signal) });
  const organizations = useGroupOrganizations(group.id);
  const update = useUpdateGroup(group.id);
  const [picked, setPicked] = useState<string | undefined>();
  const [search, setSearch] = useState('');
  const saved = (data: ConsultationTargets) => queryClient.setQueryData(key, data);
  const add = useMutation({
    mutationFn: (bucketId: string) => addConsultationTarget(group.id, bucketId),
    onSuccess: (data) => {
      saved(data);
      setPicked(undefined);
      notify.success(t('group.settingsSaved'));
    },
    onError: notify.error,
  });
  const remove = useMutation({
    mutationFn: (bucketId: string) => removeConsultationTarget(group.id, bucketId),
    onSuccess: saved,
    onError: notify.error,
  });
  const makeDefault = useMutation({
    mutationFn: (bucketId: string) => update.mutateAsync({ settings: { defaultConsultationBucketId: bucketId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
    onError: notify.error,
  });
  const listed = new Set((targets.data ?? []).map((target) => target.bucketId));
  const options = (organizations.data ?? [])
    .filter((o) => !listed.has(o.id))
    .map((o) => ({ value: o.id, label: o.name }));
  const typed = search.trim();
  if (typed && !options.some((o) => o.value === typed || o.label === typed)) {
    options.push({ value: typed, label: typed });
  }

  const columns: TableColumnsType<Target> = [
    {
      title: t('consultations.settings.bucket'),
      key: 'name',
      render: (_: unknown, target) => (
        <Space>
          {target.name}
          {target.isDefault && <Tag color="blue">{t('consultations.settings.isDefault')}</Tag>}
        </Space>
      ),
    },
    {
      key: 'actions',
      align: 'right',
      render: (_: unknown, target) => (
        <Space>
          {!target.isDefault && (
            <Button size="small" loading={makeDefault.isPending} onClick={() => makeDefault.mutate(target.bucketId)}>
              {t('consultations.settings.makeDefault')}
            </Button>
          )}
          <Button
            size="small"
            danger
            onClick={() =>
              modal.confirm({
                title: t('consultations.settings.remove'),
                content: t('consultations.settings.confirmRemove', { name: target.name }),
                okButtonProps: { danger: true },
                onOk: () => remove.mutateAsync(target.bucketId),
              })
            }
          >
            {t('consultations.settings.remove')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card variant="borderless" title={t('consultations.settings.targetsTitle')}>
      <Typography.Paragraph type="secondary">{t('consultations.settings.targetsHint')}</Typography.Paragraph>
      <Space style={{ marginBottom: 12 }}>
        <Select
          showSearch
          allowClear
          aria-label={t('consultations.settings.bucket')}
          placeholder={t('consultations.settings.bucketPlaceholder')}
          style={{ minWidth: 280 }}
          value={picked}
          onChange={setPicked}
          onSearch={setSearch}
          optionFilterProp="label"
          options={options}
        />
        <Button type="primary" disabled={!picked} loading={add.isPending} onClick={() => picked && add.mutate(picked)}>
          {t('consultations.settings.addTarget')}
        </Button>
      </Space>
      {targets.error ? (
        <LoadFailedAlert error={targets.error} onRetry={() => void targets.refetch()} />
      ) : (
        <Table<Target>
          rowKey="bucketId"
          size="small"
          pagination={false}
          loading={targets.isPending}
          columns={columns}
          dataSource={targets.data ?? []}
          locale={{ emptyText: t('consultations.settings.noTargets') }}
        />
      )}
    </Card>
  );
}
