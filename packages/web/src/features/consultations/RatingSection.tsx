import { useMutation, useQuery } from '@tanstack/react-query';
import { CONSULTATION_RATING_MAX, MAX_NOTE_LENGTH, type ConsultationDetail } from '@yyp/contracts';
import { Alert, Button, Card, Form, Input, Rate, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchRatingConfig, rateConsultation } from '../../api/consultations';
import { formatTime } from '../../shared/format/dates';
import { useDetailChange } from './useConsultation';

const SCORES = [1, 2, 3, 4, 5] as const;

/**
 * The requester's rating (once, unchangeable): stars 1–5 named by the group's rating config, and a
 * comment (required at or below the config's score). Shown read-only once rated; the form only with 'rate'.
 */
export function RatingSection({ detail, can }: { detail: ConsultationDetail; can: ReadonlySet<string> }) {
  const { t } = useTranslation();
  const rated = detail.ratingDetail;
  const canRate = can.has('rate') && rated === null;
  // the config's labels are a nicety: without them the default names show
  const config = useQuery({
    queryKey: ['groups', detail.groupId, 'rating-config'],
    queryFn: ({ signal }) => fetchRatingConfig(detail.groupId, signal),
    enabled: rated !== null || canRate,
    retry: false,
  });
  const labels = SCORES.map((s, i) => config.data?.labels[i]?.trim() || t(`consultations.rating.stars.s${s}`));
  if (rated === null && !canRate) return null;
  return (
    <Card title={t('consultations.detail.rating')}>
      {rated ? (
        <>
          <Rate disabled value={rated.score} count={CONSULTATION_RATING_MAX} />{' '}
          <Typography.Text>{labels[rated.score - 1]}</Typography.Text>
          {rated.comment && (
            <Typography.Paragraph className="yyp-consultation__text">{rated.comment}</Typography.Paragraph>
          )}
          <Typography.Text type="secondary">
            {t('consultations.rating.by', { name: rated.ratedByName, time: formatTime(rated.ratedAt) })}
          </Typography.Text>
        </>
      ) : (
        <RatingForm detail={detail} labels={labels} commentAtOrBelow={config.data?.commentRequiredAtOrBelow ?? 0} />
      )}
    </Card>
  );
}

function RatingForm(props: { detail: ConsultationDetail; labels: string[]; commentAtOrBelow: number }) {
  const { t } = useTranslation();
  const { applied, failed } = useDetailChange(props.detail.id);
  const [form] = Form.useForm<{ score: number; comment: string }>();
  const score = Form.useWatch('score', form) ?? 0;
  const rate = useMutation({
    mutationFn: (v: { score: number; comment: string }) =>
      rateConsultation(props.detail.id, { score: v.score, comment: (v.comment ?? '').trim() }),
    onSuccess: (d) => applied(d, t('consultations.rating.rated')),
    onError: failed,
  });
  return (
    <Form
      form={form}
      layout="vertical"
      name="consultationRating"
      initialValues={{ score: 0, comment: '' }}
      onFinish={(v) => rate.mutate(v)}
    >
      <Alert type="info" showIcon title={t('consultations.rating.onceHint')} style={{ marginBottom: 12 }} />
      <Form.Item
        name="score"
        label={t('consultations.detail.rating')}
        rules={[{ type: 'number', min: 1, message: t('consultations.rating.scoreRequired') }]}
      >
        <Rate count={CONSULTATION_RATING_MAX} tooltips={props.labels} aria-label={t('consultations.detail.rating')} />
      </Form.Item>
      {score > 0 && <Typography.Text>{props.labels[score - 1]}</Typography.Text>}
      <Form.Item
        name="comment"
        label={t('consultations.rating.comment')}
        dependencies={['score']}
        rules={[
          // judged on the score at the moment of saving (the star may be clicked just before)
          ({ getFieldValue }) => ({
            validator: async (_rule, value: unknown) => {
              const chosen = Number(getFieldValue('score') ?? 0);
              const empty = typeof value !== 'string' || value.trim() === '';
              if (chosen > 0 && chosen <= props.commentAtOrBelow && empty) {
                throw new Error(t('consultations.rating.commentRequired'));
              }
            },
          }),
          { max: MAX_NOTE_LENGTH },
        ]}
      >
        <Input.TextArea rows={3} maxLength={MAX_NOTE_LENGTH} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={rate.isPending}>
        {t('consultations.rating.submit')}
      </Button>
    </Form>
  );
}
