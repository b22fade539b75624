import { Alert, Card, Divider } from 'antd';
import { useTranslation } from 'react-i18next';
import { AnnouncementPanel } from './AnnouncementPanel';
import { QueueTypesPanel } from './QueueTypesPanel';
import { ScreenTokensPanel } from './ScreenTokensPanel';
import './calling.css';

interface CallQueuesCardProps {
  bucketId: string;
  /** the group's enableCalling (group settings): the card only says calling is off otherwise */
  enabled: boolean;
}

/**
 * Organization settings → call queues (spec 000 §2; issue 23): the queue types, the announcement
 * template and its preview, and the waiting-room screens' addresses. The organization page shows
 * it in its settings tab (app/ hands it in: a feature imports no other feature).
 */
export function CallQueuesCard({ bucketId, enabled }: CallQueuesCardProps) {
  const { t } = useTranslation();
  return (
    <Card variant="borderless" title={t('callQueues.title')} className="yyp-callqueues">
      <p className="yyp-callqueues__description">{t('callQueues.description')}</p>
      {enabled ? (
        <>
          <QueueTypesPanel bucketId={bucketId} />
          <Divider />
          <AnnouncementPanel bucketId={bucketId} />
          <Divider />
          <ScreenTokensPanel bucketId={bucketId} />
        </>
      ) : (
        <Alert type="info" showIcon title={t('callQueues.disabled')} />
      )}
    </Card>
  );
}
