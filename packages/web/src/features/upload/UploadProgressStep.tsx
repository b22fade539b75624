import { LoadingOutlined, RedoOutlined } from '@ant-design/icons';
import { Alert, Button, Popconfirm, Progress, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errorMessage';
import { formatBytes } from '../../ui/formatBytes';
import { skipReason } from './skipReasons';
import type { FileStatus, QueueItem } from './queueItems';
import type { UploadRun } from './useUploadRun';

const STATUS_COLORS: Record<FileStatus, string | undefined> = {
  waiting: undefined,
  uploading: 'processing',
  checking: 'processing',
  done: 'success',
  skipped: 'warning',
  failed: 'error',
  cancelled: undefined,
};

const COUNTED: readonly FileStatus[] = ['uploading', 'waiting', 'checking', 'done', 'skipped', 'failed', 'cancelled'];

/** Step 3: each file's state and the total in bytes; stop, retry, and finish with what arrived. */
export function UploadProgressStep({ run, organization }: { run: UploadRun; organization: string }) {
  const { t } = useTranslation();
  const { totals, items } = run;
  const percent = totals.bytes > 0 ? Math.floor((totals.sentBytes / totals.bytes) * 100) : 100;
  const leftOut = totals.counts.failed + totals.counts.cancelled;

  function statusCell(item: QueueItem) {
    if (item.status === 'uploading') {
      const filePercent = item.size > 0 ? Math.floor((item.sent / item.size) * 100) : 0;
      return <Progress percent={filePercent} size="small" className="yyp-upload-file-progress" />;
    }
    return (
      <Tag
        color={STATUS_COLORS[item.status]}
        icon={item.status === 'checking' ? <LoadingOutlined /> : undefined}
        className="yyp-upload-status"
      >
        {t(`upload.fileStatus.${item.status}`)}
      </Tag>
    );
  }

  function detailCell(item: QueueItem) {
    if (item.status === 'skipped') {
      return <Typography.Text type="warning">{t(`skipReasons.${skipReason(item.reason)}`)}</Typography.Text>;
    }
    if ((item.status === 'failed' || item.status === 'cancelled') && !run.summary) {
      return (
        <Space size={4} wrap>
          {item.failure && <Typography.Text type="danger">{t(`upload.failures.${item.failure}`)}</Typography.Text>}
          <Button
            type="link"
            size="small"
            className="yyp-link-button"
            icon={<RedoOutlined />}
            onClick={() => run.retry(item.key)}
            aria-label={`${t('common.retry')} ${item.path}`}
          >
            {t('common.retry')}
          </Button>
        </Space>
      );
    }
    return null;
  }

  const columns: TableColumnsType<QueueItem> = [
    // The whole path, wrapped: DICOM file names differ only at their end.
    { key: 'path', title: t('upload.colFile'), dataIndex: 'path', className: 'yyp-upload-path' },
    { key: 'size', title: t('upload.colSize'), width: 100, align: 'end', render: (_, item) => formatBytes(item.size) },
    { key: 'status', title: t('upload.colStatus'), width: 170, render: (_, item) => statusCell(item) },
    { key: 'detail', title: t('upload.colReason'), width: 240, render: (_, item) => detailCell(item) },
  ];

  return (
    <div className="yyp-wizard-step">
      <div className="yyp-upload-overall">
        <Typography.Text strong>{t('upload.uploadingTo', { organization })}</Typography.Text>
        <Progress
          percent={percent}
          status={totals.active ? 'active' : leftOut > 0 ? 'exception' : 'normal'}
          aria-label={t('upload.stepUpload')}
        />
        <Space size={[8, 4]} wrap>
          <Typography.Text type="secondary">
            {t('upload.progress', { sent: formatBytes(totals.sentBytes), total: formatBytes(totals.bytes) })}
          </Typography.Text>
          {COUNTED.filter((status) => totals.counts[status] > 0).map((status) => (
            <Tag key={status} color={STATUS_COLORS[status]} className="yyp-upload-count">
              {t(`upload.fileStatus.${status}`)} {totals.counts[status]}
            </Tag>
          ))}
        </Space>
      </div>
      {run.finishError ? (
        <Alert
          type="error"
          showIcon
          title={t('upload.finishFailed')}
          description={
            run.hasCorrections
              ? `${errorMessage(t, run.finishError)} ${t('upload.correction.refused')}`
              : errorMessage(t, run.finishError)
          }
        />
      ) : run.offline && leftOut > 0 ? (
        <Alert type="info" showIcon title={t('upload.offline')} />
      ) : (
        !totals.active && leftOut > 0 && <Alert type="warning" showIcon title={t('upload.incomplete')} />
      )}
      <Table<QueueItem>
        rowKey="key"
        size="small"
        columns={columns}
        dataSource={[...items]}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
      />
      <div className="yyp-wizard-actions">
        {totals.active ? (
          <Popconfirm
            title={t('upload.stopConfirm')}
            okText={t('upload.stop')}
            cancelText={t('common.cancel')}
            onConfirm={run.cancel}
          >
            <Button danger>{t('upload.stop')}</Button>
          </Popconfirm>
        ) : (
          <>
            {totals.counts.cancelled > 0 && <Button onClick={run.retryAll}>{t('upload.resume')}</Button>}
            {totals.counts.failed > 0 && totals.counts.cancelled === 0 && (
              <Button icon={<RedoOutlined />} onClick={run.retryAll}>
                {t('upload.retryFailed')}
              </Button>
            )}
            {run.finishError && run.hasCorrections && (
              <Button loading={run.finishing} onClick={() => void run.finishWithoutCorrections()}>
                {t('upload.correction.finishWithout')}
              </Button>
            )}
            <Button type="primary" loading={run.finishing} onClick={() => void run.finish()}>
              {t('upload.finish')}
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
