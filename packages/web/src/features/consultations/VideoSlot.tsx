import { VideoCameraOutlined } from '@ant-design/icons';
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConsultationDetail } from '@yyp/contracts';

/**
 * Where the video room of a scheduled consultation goes ('video' in `can`): the room itself is
 * shared/video/VideoRoom.tsx ({ consultationId }); until it is there, the slot says where it will be.
 */
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
      <Typography.Text type="secondary">{detail.title}</Typography.Text>
    </Card>
  );
}
