import type { ConsultationDetail } from '@yyp/contracts';
import { useTranslation } from 'react-i18next';
import { VideoRoom } from '../../shared/video/VideoRoom';

/**
 * The video room of a scheduled consultation, only where the caller may join ('video' in `can`).
 * VideoRoom draws its own titled box (with who is in the room), so no card around it repeats the title.
 */
export function VideoSlot({ detail }: { detail: ConsultationDetail }) {
  const { t } = useTranslation();
  if (!detail.can.includes('video')) return null;
  return (
    <section aria-label={t('consultations.detail.video')}>
      <VideoRoom consultationId={detail.id} />
    </section>
  );
}
