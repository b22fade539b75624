import {
  QUALITY_ITEM_MAX,
  QUALITY_ITEMS_MAX,
  QUALITY_LEVELS,
  QUALITY_SUGGESTION_MAX,
  type QualityLevel,
  type Report,
  type ReportQuality,
} from '@yyp/contracts';
import { Button, Descriptions, Form, Input, Popconfirm, Radio, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { formatWhen, isHiddenError } from '../../../shared/safety/safetyFormat';
import { useReportQuality } from './useReportSafety';

interface QualityForm {
  level: QualityLevel;
  suggestion?: string;
  unsatisfactoryItems?: string[];
}

/**
 * 报告质控 (spec 000 §3 Report "Quality: level, suggestion, creator, unsatisfactory items"):
 * quality reviewers (quality_upsert) grade an approved or printed report; quality_delete removes
 * the grade; the report's readers see it.
 */
export function QualitySection({ report }: { report: Report }) {
  const { t } = useTranslation();
  const { answer, save, remove } = useReportQuality(report.id);
  const [form] = Form.useForm<QualityForm>();

  if (answer.isError) {
    return isHiddenError(answer.error) ? null : (
      <LoadFailedAlert error={answer.error} onRetry={() => void answer.refetch()} />
    );
  }
  if (!answer.data) {
    return <Skeleton active paragraph={{ rows: 1 }} />;
  }
  const { quality, canUpsert, canDelete, gradable } = answer.data;
  if (!quality && !canUpsert) {
    return null;
  }

  async function handleSave() {
    let values: QualityForm;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    await save
      .mutateAsync({
        level: values.level,
        suggestion: values.suggestion?.trim() ?? '',
        unsatisfactoryItems: (values.unsatisfactoryItems ?? []).map((i) => i.trim()).filter(Boolean),
      })
      .catch(() => undefined);
  }

  return (
    <section className="yyp-safety" aria-label={t('reportSafety.quality.title')} data-testid="report-quality">
      <div className="yyp-safety__head">
        <Typography.Title level={5} className="yyp-safety__title">
          {t('reportSafety.quality.title')}
          {quality && (
            <Tag color="blue" className="yyp-safety__count">
              {t(`reportSafety.quality.levels.${quality.level}`)}
            </Tag>
          )}
        </Typography.Title>
        {canDelete && quality && (
          <Popconfirm
            title={t('reportSafety.quality.deleteConfirm')}
            onConfirm={() => remove.mutateAsync().catch(() => undefined)}
          >
            <Button size="small" danger loading={remove.isPending}>
              {t('reportSafety.quality.delete')}
            </Button>
          </Popconfirm>
        )}
      </div>
      {!gradable && !quality && (
        <Typography.Text type="secondary">{t('reportSafety.quality.notGradable')}</Typography.Text>
      )}
      {canUpsert ? (
        <Form
          form={form}
          layout="vertical"
          size="small"
          key={quality?.updatedAt ?? 'new'}
          initialValues={{
            level: quality?.level,
            suggestion: quality?.suggestion ?? '',
            unsatisfactoryItems: quality?.unsatisfactoryItems ?? [],
          }}
        >
          <Form.Item
            name="level"
            label={t('reportSafety.quality.level')}
            rules={[{ required: true, message: t('reportSafety.critical.required') }]}
          >
            <Radio.Group
              optionType="button"
              options={QUALITY_LEVELS.map((l) => ({ value: l, label: t(`reportSafety.quality.levels.${l}`) }))}
            />
          </Form.Item>
          <Form.Item name="suggestion" label={t('reportSafety.quality.suggestion')}>
            <Input.TextArea rows={3} maxLength={QUALITY_SUGGESTION_MAX} showCount />
          </Form.Item>
          <Form.Item
            name="unsatisfactoryItems"
            label={t('reportSafety.quality.items')}
            rules={[
              {
                validator: (_, v: string[] | undefined) =>
                  (v ?? []).length <= QUALITY_ITEMS_MAX && (v ?? []).every((i) => i.length <= QUALITY_ITEM_MAX)
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('reportSafety.quality.itemsTooMany'))),
              },
            ]}
          >
            <Select mode="tags" open={false} placeholder={t('reportSafety.quality.itemsPlaceholder')} />
          </Form.Item>
          <Space>
            <Button type="primary" onClick={() => void handleSave()} loading={save.isPending}>
              {t('reportSafety.quality.save')}
            </Button>
            {quality?.creator && (
              <Typography.Text type="secondary">
                {t('reportSafety.quality.gradedBy', { name: quality.creator.name })} · {formatWhen(quality.updatedAt)}
              </Typography.Text>
            )}
          </Space>
        </Form>
      ) : (
        quality && <QualityView quality={quality} />
      )}
    </section>
  );
}

function QualityView({ quality }: { quality: ReportQuality }) {
  const { t } = useTranslation();
  return (
    <Descriptions size="small" column={1} bordered>
      <Descriptions.Item label={t('reportSafety.quality.level')}>
        {t(`reportSafety.quality.levels.${quality.level}`)}
      </Descriptions.Item>
      <Descriptions.Item label={t('reportSafety.quality.suggestion')}>
        <span className="yyp-report__prewrap">{quality.suggestion}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('reportSafety.quality.items')}>
        {quality.unsatisfactoryItems.map((i) => (
          <Tag key={i}>{i}</Tag>
        ))}
      </Descriptions.Item>
      <Descriptions.Item label={t('reportSafety.quality.grader')}>
        {quality.creator?.name ?? '—'} · {formatWhen(quality.updatedAt)}
      </Descriptions.Item>
    </Descriptions>
  );
}
