import { REPORT_COMMENT_MAX, type Report } from '@yyp/contracts';
import { Button, Input, List, Popconfirm, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasCode } from '../../../api/errors';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { formatWhen, isHiddenError } from '../../../shared/safety/safetyFormat';
import { useReportComments } from './useReportSafety';

/** Comments on the report, where the group allows them (allowReportComment); authors delete their own. */
export function ReportCommentsSection({ report }: { report: Report }) {
  const { t } = useTranslation();
  const { comments, add, remove } = useReportComments(report.id);
  const [text, setText] = useState('');

  if (comments.isError) {
    if (hasCode(comments.error, 'ReportCommentsDisabled')) {
      return <Typography.Text type="secondary">{t('reportSafety.comments.disabled')}</Typography.Text>;
    }
    return isHiddenError(comments.error) ? null : (
      <LoadFailedAlert error={comments.error} onRetry={() => void comments.refetch()} />
    );
  }
  if (!comments.data) {
    return <Skeleton active paragraph={{ rows: 1 }} />;
  }

  async function handleAdd() {
    const value = text.trim();
    if (!value) {
      return;
    }
    try {
      await add.mutateAsync(value);
    } catch {
      return;
    }
    setText('');
  }

  return (
    <section className="yyp-safety" aria-label={t('reportSafety.comments.title')} data-testid="report-comments">
      <Typography.Title level={5} className="yyp-safety__title">
        {t('reportSafety.comments.title')}
      </Typography.Title>
      {comments.data.items.length === 0 ? (
        <Typography.Text type="secondary">{t('reportSafety.comments.empty')}</Typography.Text>
      ) : (
        <List
          size="small"
          dataSource={comments.data.items}
          rowKey="id"
          renderItem={(c) => (
            <List.Item
              actions={
                c.mine
                  ? [
                      <Popconfirm
                        key="delete"
                        title={t('reportSafety.comments.deleteConfirm')}
                        onConfirm={() => remove.mutateAsync(c.id).catch(() => undefined)}
                      >
                        <Button type="link" size="small" danger>
                          {t('reportSafety.comments.delete')}
                        </Button>
                      </Popconfirm>,
                    ]
                  : []
              }
            >
              <div className="yyp-safety__entry">
                <div>
                  <Typography.Text strong>{c.author?.name ?? '—'}</Typography.Text>{' '}
                  <Typography.Text type="secondary">{formatWhen(c.createdAt)}</Typography.Text>
                </div>
                <div className="yyp-report__prewrap">{c.text}</div>
              </div>
            </List.Item>
          )}
        />
      )}
      <Space.Compact block className="yyp-safety__form">
        <Input.TextArea
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={REPORT_COMMENT_MAX}
          autoSize={{ minRows: 2, maxRows: 6 }}
          placeholder={t('reportSafety.comments.placeholder')}
          aria-label={t('reportSafety.comments.placeholder')}
        />
      </Space.Compact>
      <Button
        type="primary"
        size="small"
        onClick={() => void handleAdd()}
        loading={add.isPending}
        disabled={!text.trim()}
        className="yyp-safety__submit"
      >
        {t('reportSafety.comments.add')}
      </Button>
    </section>
  );
}
