import type { DicomSend } from '@yyp/contracts';
import { Progress, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const STATUS_COLOR: Record<DicomSend['status'], string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
};

/**
 * A send to a DICOM node (issue 28): its status with its progress (images sent of all); a failed
 * one says its last error on hover. Shown by procedure management's recent sends and the exam's
 * send dialog.
 */
export function SendStatus({ send }: { send: DicomSend }) {
  const { t } = useTranslation();
  const percent = send.total > 0 ? Math.round((send.sent / send.total) * 100) : send.status === 'done' ? 100 : 0;
  const tag = <Tag color={STATUS_COLOR[send.status]}>{t(`procedures.sends.statuses.${send.status}`)}</Tag>;
  return (
    <Space size={8} wrap={false}>
      {send.lastError && send.status === 'failed' ? (
        <Tooltip title={t('procedures.sends.lastError', { error: send.lastError })}>{tag}</Tooltip>
      ) : (
        tag
      )}
      <Progress
        percent={percent}
        size="small"
        status={send.status === 'failed' ? 'exception' : send.status === 'done' ? 'success' : 'active'}
        showInfo={false}
        style={{ width: 90, margin: 0 }}
      />
      <Typography.Text type="secondary">
        {t('procedures.sends.progress', { sent: send.sent, total: send.total })}
      </Typography.Text>
    </Space>
  );
}

/** The number of instances of a send that did not arrive, red when some did not. */
export function SendFailedCount({ send }: { send: DicomSend }) {
  const { t } = useTranslation();
  return send.failed > 0 ? (
    <Typography.Text type="danger">{t('procedures.sends.failedCount', { count: send.failed })}</Typography.Text>
  ) : (
    <>—</>
  );
}
