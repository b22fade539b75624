import type { ConsultationDetail } from '@yyp/contracts';
import { VideoRoom } from '../../shared/video/VideoRoom';

/**
 * The video room of a scheduled consultation ('video' in `can`): shared/video/VideoRoom.tsx
 * (join, tiles, controls); nothing otherwise.
 */
export function VideoSlot({ detail }: { detail: ConsultationDetail }) {
  if (!detail.can.includes('video')) return null;
  return <VideoRoom consultationId={detail.id} />;
}
