import { RATING_COMMENT_MAX, type Report } from '@yyp/contracts';
import { Alert, Button, Form, Input, List, Rate, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { formatWhen, isHiddenError } from '../../../shared/safety/safetyFormat';
import { useReportRatings } from './useReportSafety';

/** Ratings of an approved report (spec 000 §3 "Rating (cannot be changed once submitted)"). */
export function RatingsSection({ report }: { report: Report }) {
  const { t } = useTranslation();
  const { ratings, rate } = useReportRatings(report.id);
  const [form] = Form.useForm<{ score: number; comment?: string }>();

  if (ratings.isError) {
    return isHiddenError(ratings.error) ? null : (
      <LoadFailedAlert error={ratings.error} onRetry={() => void ratings.refetch()} />
    );
  }
  if (!ratings.data) {
    return <Skeleton active paragraph={{ rows: 1 }} />;
  }
  const { items, average, canRate } = ratings.data;
  if (items.length === 0 && !canRate) {
    return null;
  }

  async function handleRate() {
    let values: { score: number; comment?: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    await rate.mutateAsync({ score: values.score, comment: values.comment?.trim() ?? '' }).catch(() => undefined);
  }

  return (
    <section className="yyp-safety" aria-label={t('reportSafety.rating.title')} data-testid="report-ratings">
      <div className="yyp-safety__head">
        <Typography.Title level={5} className="yyp-safety__title">
          {t('reportSafety.rating.title')}
        </Typography.Title>
        {average !== null && (
          <span className="yyp-safety__average">
            <Rate disabled allowHalf value={average} />{' '}
            <Typography.Text type="secondary">
              {t('reportSafety.rating.average', { score: average, count: items.length })}
            </Typography.Text>
          </span>
        )}
      </div>
      {items.length === 0 ? (
        <Typography.Text type="secondary">{t('reportSafety.rating.none')}</Typography.Text>
      ) : (
        <List
          size="small"
          dataSource={items}
          rowKey="id"
          renderItem={(r) => (
            <List.Item>
              <div className="yyp-safety__entry">
                <div>
                  <Rate disabled value={r.score} className="yyp-safety__stars" />{' '}
                  <Typography.Text strong>
                    {r.rater?.name ?? '—'}
                    {r.mine ? ` (${t('reportSafety.rating.mine')})` : ''}
                  </Typography.Text>{' '}
                  <Typography.Text type="secondary">{formatWhen(r.createdAt)}</Typography.Text>
                </div>
                {r.comment && <div className="yyp-report__prewrap">{r.comment}</div>}
              </div>
            </List.Item>
          )}
        />
      )}
      {canRate && (
        <Form form={form} layout="vertical" size="small" className="yyp-safety__form">
          <Form.Item
            name="score"
            rules={[{ required: true, message: t('reportSafety.rating.scoreRequired') }]}
            className="yyp-safety__compact"
          >
            <Rate />
          </Form.Item>
          <Form.Item name="comment" label={t('reportSafety.rating.comment')}>
            <Input.TextArea rows={2} maxLength={RATING_COMMENT_MAX} showCount />
          </Form.Item>
          <Alert type="warning" showIcon title={t('reportSafety.rating.immutable')} className="yyp-safety__hint" />
          <Button type="primary" onClick={() => void handleRate()} loading={rate.isPending}>
            {t('reportSafety.rating.submit')}
          </Button>
        </Form>
      )}
    </section>
  );
}
