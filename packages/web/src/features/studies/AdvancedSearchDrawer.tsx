import { useQueries, useQuery } from '@tanstack/react-query';
import {
  PATIENT_GENDERS,
  PATIENT_SOURCES,
  REPORT_STATUSES,
  UPLOAD_STATUSES,
  type DictionaryItem,
} from '@yyp/contracts';
import { Button, DatePicker, Drawer, Form, Input, InputNumber, Radio, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errorMessage';
import { fetchReporters } from '../../api/exams';
import { fetchDictionary } from '../../api/organizations';
import type { AdvancedSearch, TriState } from './studySearch';
import { useAccessibleOrganizations } from '../../shared/queries/studyQueries';

interface AdvancedSearchDrawerProps {
  open: boolean;
  value: AdvancedSearch;
  onApply: (value: AdvancedSearch) => void;
  onClose: () => void;
}

type FormValues = Omit<AdvancedSearch, 'createdFrom' | 'createdTo'> & { created?: [Dayjs | null, Dayjs | null] | null };

/** Every filter field of the study list (spec 000 §2 "advanced search"). */
export function AdvancedSearchDrawer({ open, value, onApply, onClose }: AdvancedSearchDrawerProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const organizations = useAccessibleOrganizations();
  const bucketIds = (organizations.data ?? []).map((o) => o.id);
  const reporters = useQuery({
    queryKey: ['exams', 'reporters', bucketIds],
    queryFn: ({ signal }) => fetchReporters(bucketIds, signal),
    enabled: open && bucketIds.length > 0,
  });
  const tags = useQueries({
    queries: bucketIds.map((id) => ({
      queryKey: ['buckets', id, 'dictionary', 'tags'],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchDictionary(id, 'tags', signal),
      enabled: open,
    })),
  });

  useEffect(() => {
    if (open) {
      form.setFieldsValue({
        ...value,
        created:
          value.createdFrom || value.createdTo
            ? [value.createdFrom ? dayjs(value.createdFrom) : null, value.createdTo ? dayjs(value.createdTo) : null]
            : null,
      });
    }
  }, [open, value, form]);

  const handleApply = () => {
    const { created, ...rest } = form.getFieldsValue();
    const clean = Object.fromEntries(
      Object.entries(rest).filter(
        ([, v]) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0),
      ),
    ) as AdvancedSearch;
    onApply({
      ...clean,
      ...(created?.[0] ? { createdFrom: created[0].format('YYYY-MM-DD') } : {}),
      ...(created?.[1] ? { createdTo: created[1].format('YYYY-MM-DD') } : {}),
    });
  };

  // A choice list that could not be loaded says why under its field instead of staying empty.
  const failedHelp = (error: unknown) =>
    error ? { help: errorMessage(t, error), validateStatus: 'error' as const } : {};

  const tri = (name: keyof AdvancedSearch, label: string) => (
    <Form.Item name={name} label={label}>
      <Radio.Group
        optionType="button"
        size="small"
        options={[
          { value: undefined as TriState, label: t('studyList.field.any') },
          { value: 'true', label: t('studyList.field.yes') },
          { value: 'false', label: t('studyList.field.no') },
        ]}
      />
    </Form.Item>
  );
  const tagOptions = tags
    .flatMap((q) => (q.data ?? []) as DictionaryItem[])
    .map((tag) => ({ value: tag.id, label: tag.name }));

  return (
    <Drawer
      title={t('studyList.advancedTitle')}
      open={open}
      onClose={onClose}
      size="large"
      destroyOnHidden={false}
      extra={
        <Space>
          <Button
            onClick={() => {
              form.resetFields();
              onApply({});
            }}
          >
            {t('studyList.clear')}
          </Button>
          <Button type="primary" onClick={handleApply}>
            {t('studyList.apply')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" className="yyp-advanced-search" onFinish={handleApply}>
        <div className="yyp-form-grid">
          <Form.Item name="patientName" label={t('studyList.field.patientName')}>
            <Input allowClear />
          </Form.Item>
          <Form.Item name="patientId" label={t('studyList.field.patientId')}>
            <Input allowClear />
          </Form.Item>
          <Form.Item name="accessionNumber" label={t('studyList.field.accessionNumber')}>
            <Input allowClear />
          </Form.Item>
          <Form.Item name="bodyPart" label={t('studyList.field.bodyPart')}>
            <Input allowClear />
          </Form.Item>
          <Form.Item name="studyDesc" label={t('studyList.field.studyDesc')}>
            <Input allowClear />
          </Form.Item>
          <Form.Item name="applyDept" label={t('studyList.field.applyDept')}>
            <Input allowClear />
          </Form.Item>
          <Form.Item name="orderPlacer" label={t('studyList.field.orderPlacer')}>
            <Input allowClear />
          </Form.Item>
          <Form.Item name="created" label={t('studyList.field.created')}>
            <DatePicker.RangePicker allowEmpty={[true, true]} />
          </Form.Item>
          <Form.Item label={t('studyList.field.age')}>
            <Space.Compact>
              <Form.Item name="ageFrom" noStyle>
                <InputNumber min={0} max={150} placeholder={t('studyList.field.from')} />
              </Form.Item>
              <Form.Item name="ageTo" noStyle>
                <InputNumber min={0} max={150} placeholder={t('studyList.field.to')} />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
          <Form.Item name="bucketIds" label={t('studyList.field.organization')}>
            <Select
              mode="multiple"
              allowClear
              options={(organizations.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
            />
          </Form.Item>
          <Form.Item name="genders" label={t('studyList.field.gender')}>
            <Select
              mode="multiple"
              allowClear
              options={PATIENT_GENDERS.map((g) => ({ value: g, label: t(`studyList.gender.${g}`) }))}
            />
          </Form.Item>
          <Form.Item name="sources" label={t('studyList.field.source')}>
            <Select
              mode="multiple"
              allowClear
              options={PATIENT_SOURCES.map((s) => ({ value: s, label: t(`studyList.source.${s}`) }))}
            />
          </Form.Item>
          <Form.Item name="reportStatuses" label={t('studyList.field.reportStatus')}>
            <Select
              mode="multiple"
              allowClear
              options={REPORT_STATUSES.map((s) => ({ value: s, label: t(`studyList.status.${s}`) }))}
            />
          </Form.Item>
          <Form.Item name="assignees" label={t('studyList.field.assignee')} {...failedHelp(reporters.error)}>
            <Select
              mode="multiple"
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              options={[
                { value: 'none', label: t('studyList.field.unassigned') },
                ...(reporters.data ?? []).map((r) => ({ value: r.id, label: r.name || r.username })),
              ]}
            />
          </Form.Item>
          <Form.Item name="tagIds" label={t('studyList.field.tag')} {...failedHelp(tags.find((q) => q.isError)?.error)}>
            <Select mode="multiple" allowClear options={tagOptions} />
          </Form.Item>
          <Form.Item name="uploadStatus" label={t('studyList.field.uploadStatus')}>
            <Select
              allowClear
              options={UPLOAD_STATUSES.map((s) => ({ value: s, label: t(`studyList.upload.${s}`) }))}
            />
          </Form.Item>
        </div>
        <div className="yyp-form-grid">
          {tri('urgentFlag', t('studyList.field.urgent'))}
          {tri('teleMedFlag', t('studyList.field.tele'))}
          {tri('printed', t('studyList.field.printed'))}
          {tri('critical', t('studyList.field.critical'))}
          {tri('hasImage', t('studyList.field.hasImage'))}
        </div>
      </Form>
    </Drawer>
  );
}
