import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CONSULTATION_RATING_MAX, type Group, type RatingConfig } from '@yyp/contracts';
import { App, Button, Card, Form, Input, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchRatingConfig, saveRatingConfig } from '../../../api/consultations';
import { hasCode } from '../../../api/errors';
import { useNotify } from '../../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';

interface RatingValues {
  labels: string[];
  commentRequiredAtOrBelow: number;
}

const SCORES = [1, 2, 3, 4, 5] as const;

/**
 * The group's consultation rating config (GET/PUT groups/{id}/rating-config): each star's label and
 * the score at or below which a comment is required; saved at the version read (stale: reloaded).
 */
export function RatingConfigCard({ group }: { group: Group }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const key = ['groups', group.id, 'rating-config'];
  const config = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchRatingConfig(group.id, signal) });
  const [form] = Form.useForm<RatingValues>();
  useEffect(() => {
    if (config.data) {
      form.setFieldsValue({
        labels: config.data.labels,
        commentRequiredAtOrBelow: config.data.commentRequiredAtOrBelow,
      });
    }
  }, [config.data, form]);
  const save = useMutation({
    mutationFn: (v: RatingValues) =>
      saveRatingConfig(group.id, {
        labels: v.labels.map((label) => (label ?? '').trim()),
        commentRequiredAtOrBelow: v.commentRequiredAtOrBelow,
        version: config.data?.version ?? 0,
      }),
    onSuccess: (data: RatingConfig) => {
      queryClient.setQueryData(key, data);
      notify.success(t('group.settingsSaved'));
    },
    onError: (error) => {
      if (hasCode(error, 'Conflict')) {
        void message.warning(t('consultations.settings.conflict'));
        void config.refetch();
        return;
      }
      notify.error(error);
    },
  });

  return (
    <Card variant="borderless" title={t('consultations.settings.ratingTitle')}>
      <Typography.Paragraph type="secondary">{t('consultations.settings.ratingHint')}</Typography.Paragraph>
      {config.error ? (
        <LoadFailedAlert error={config.error} onRetry={() => void config.refetch()} />
      ) : (
        <Form<RatingValues>
          form={form}
          name="ratingConfig"
          layout="vertical"
          initialValues={{ labels: ['', '', '', '', ''], commentRequiredAtOrBelow: 0 }}
          onFinish={(v) => save.mutate(v)}
          disabled={config.isPending}
        >
          {SCORES.map((score, i) => (
            <Form.Item
              key={score}
              name={['labels', i]}
              label={t('consultations.settings.starLabel', { count: score })}
              rules={[{ max: 32 }]}
            >
              <Input maxLength={32} placeholder={t(`consultations.rating.stars.s${score}`)} />
            </Form.Item>
          ))}
          <Form.Item name="commentRequiredAtOrBelow" label={t('consultations.settings.commentRequiredAtOrBelow')}>
            <Select
              aria-label={t('consultations.settings.commentRequiredAtOrBelow')}
              options={[
                { value: 0, label: t('consultations.settings.never') },
                ...Array.from({ length: CONSULTATION_RATING_MAX }, (_, i) => ({ value: i + 1, label: String(i + 1) })),
              ]}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Form>
      )}
    </Card>
  );
}
