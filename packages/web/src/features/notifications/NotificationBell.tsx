import { BellOutlined } from '@ant-design/icons';
import type { NotificationItem } from '@yyp/contracts';
import { Badge, Button, Dropdown, Empty, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useNotify } from '../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { useNotificationToasts } from './useNotificationToasts';
import { useNotifications } from './useNotifications';
import './notifications.css';
import { usePersonName } from '../../ui/usePersonName';

/** Where a notification leads. The exam's own page does not exist yet: the study list. */
const NOTIFICATION_TARGET = '/studies';

export function formatExamTime(examTime: string): string {
  const time = dayjs(examTime);
  return time.isValid() ? time.format('YYYY-MM-DD HH:mm') : '';
}

function examLine(item: NotificationItem): string {
  return [item.exam.modality, item.exam.bodyPart].filter(Boolean).join(' · ');
}

function metaLine(item: NotificationItem): string {
  return [item.exam.bucketName, formatExamTime(item.exam.examTime)].filter(Boolean).join(' · ');
}

/**
 * The bell in the navbar: unread count, the 5 newest notifications, mark all read, and a toast
 * for each one that arrives while the app is open.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const personName = usePersonName();
  const navigate = useNavigate();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const { items, sound, unread, listError, isLoading, refresh, markRead, markAllRead } = useNotifications();
  const kindLabel = (item: NotificationItem) =>
    item.kind === 'critical_value'
      ? t('notifications.criticalValue')
      : item.kind === 'remote_report'
        ? t('notifications.remoteReport')
        : t('notifications.examUploaded');

  function handleOpenItem(item: NotificationItem) {
    setOpen(false);
    if (item.readAt === null) {
      markRead.mutate(item.id, { onError: (error) => notify.error(error) });
    }
    void navigate(NOTIFICATION_TARGET);
  }

  function handleMarkAll() {
    markAllRead.mutate(undefined, { onError: (error) => notify.error(error) });
  }

  function handleOpenChange(next: boolean) {
    setOpen(next);
    if (next) {
      void refresh();
    }
  }

  const toastHolder = useNotificationToasts(
    items,
    (item) => ({
      title: kindLabel(item),
      description: (
        <div className="yyp-notification-toast__body">
          <Typography.Text strong>{personName(item.exam.patientName) || t('notifications.noName')}</Typography.Text>
          <span>{examLine(item)}</span>
          <Typography.Text type="secondary">{metaLine(item)}</Typography.Text>
        </div>
      ),
    }),
    handleOpenItem,
    sound,
  );

  const panel = (
    <div className="yyp-notifications" role="dialog" aria-label={t('notifications.title')}>
      <div className="yyp-notifications__head">
        <Typography.Text strong>{t('notifications.title')}</Typography.Text>
        <Button
          type="link"
          size="small"
          disabled={unread === 0}
          loading={markAllRead.isPending}
          onClick={handleMarkAll}
        >
          {t('notifications.markAllRead')}
        </Button>
      </div>
      {listError ? (
        <div className="yyp-notifications__state">
          <LoadFailedAlert error={listError} onRetry={() => void refresh()} />
        </div>
      ) : isLoading ? (
        <div className="yyp-notifications__state">
          <Spin />
        </div>
      ) : !items || items.length === 0 ? (
        <Empty
          className="yyp-notifications__state"
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('notifications.empty')}
        />
      ) : (
        <ul className="yyp-notifications__list">
          {items.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className={`yyp-notification${item.readAt === null ? ' yyp-notification--unread' : ''}`}
                onClick={() => handleOpenItem(item)}
              >
                <span className="yyp-notification__kind">
                  {item.readAt === null && <Badge status="processing" />}
                  {kindLabel(item)}
                </span>
                <span className="yyp-notification__patient">
                  <span
                    className="yyp-notification__name"
                    title={item.masked ? t('notifications.maskedHint') : undefined}
                  >
                    {personName(item.exam.patientName) || t('notifications.noName')}
                  </span>
                  <span className="yyp-notification__exam">{examLine(item)}</span>
                </span>
                <span className="yyp-notification__meta">{metaLine(item)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="yyp-notifications__foot">
        <Typography.Text type="secondary">{t('notifications.newestOnly')}</Typography.Text>
      </div>
    </div>
  );

  return (
    <>
      {toastHolder}
      <Dropdown
        open={open}
        onOpenChange={handleOpenChange}
        trigger={['click']}
        placement="bottomRight"
        popupRender={() => panel}
      >
        <Button
          type="text"
          className="yyp-bell"
          aria-label={unread > 0 ? t('notifications.bellUnread', { count: unread }) : t('notifications.title')}
        >
          {unread > 0 ? (
            <Badge count={unread} size="small" overflowCount={99} offset={[2, -2]}>
              <BellOutlined className="yyp-bell__icon" />
            </Badge>
          ) : (
            <BellOutlined className="yyp-bell__icon" />
          )}
        </Button>
      </Dropdown>
    </>
  );
}
