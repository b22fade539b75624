import { VideoCameraOutlined } from '@ant-design/icons';
import type { ConsultationDetail } from '@yyp/contracts';
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { VideoRoom } from '../../shared/video/VideoRoom';

/** The video room of a scheduled consultation, only where the caller may join ('video' in `can`). */
export function VideoSlot({ detail }: { detail: ConsultationDetail }) {
  const { t } = useTranslation();
  if (!detail.can.includes('video')) return null;
  return (
    <Card
      title={
        <>
          <VideoCameraOutlined /> {t('consultations.detail.video')}
        </>
      }
    >
      <VideoRoom consultationId={detail.id} />
    </Card>
  );
}
