import { StarFilled } from '@ant-design/icons';
import {
  CONSULTATION_STATUS_VALUES,
  statusName,
  type ConsultationFilters,
  type ConsultationListItem,
  type ConsultationStatus,
} from '@yyp/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Labels of the consultation screens: the status tag, the status choices, the target and its experts. */

const STATUS_COLORS: Record<ConsultationStatus, string> = { 0: 'gold', 1: 'blue', 2: 'green', 3: 'default' };

export const CONSULTATION_STATUS_OPTIONS = Object.values(CONSULTATION_STATUS_VALUES) as ConsultationStatus[];

export function ConsultationStatusTag({ status }: { status: ConsultationStatus }) {
  const { t } = useTranslation();
  return <Tag color={STATUS_COLORS[status]}>{t(`consultations.status.${statusName(status)}`)}</Tag>;
}

/** The target organization and, after a colon, its experts. */
export function joinedText(item: Pick<ConsultationListItem, 'joinedBuckets'>): string {
  return item.joinedBuckets
    .map((b) => (b.experts.length > 0 ? `${b.bucketName}: ${b.experts.join(', ')}` : b.bucketName))
    .join('; ');
}

export function RatingStars({ score }: { score: number | null }) {
  if (score === null) return null;
  return (
    <span className="yyp-consultation-stars" aria-label={`${score}/5`}>
      {Array.from({ length: score }, (_, i) => (
        <StarFilled key={i} />
      ))}
    </span>
  );
}

/** The list's filters as the page's form keeps them. */
export interface ListFilters {
  status?: ConsultationStatus;
  keyword?: string;
  dates?: [string, string] | null;
  sourceBucketId?: string;
  targetBucketId?: string;
}

/** Pure: the filters as consultations/query-page's filter (empty ones left out). */
export function consultationFilter(filters: ListFilters, mine: boolean): ConsultationFilters {
  const keyword = filters.keyword?.trim();
  return {
    ...(filters.status !== undefined ? { status: { equal: filters.status } } : {}),
    ...(keyword ? { keyword } : {}),
    ...(filters.sourceBucketId ? { sourceBucketId: filters.sourceBucketId } : {}),
    ...(filters.targetBucketId ? { targetBucketId: filters.targetBucketId } : {}),
    ...(filters.dates ? { from: filters.dates[0], to: filters.dates[1] } : {}),
    ...(mine ? { mine: true } : {}),
  };
}
