import { Button, Space, Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { StudiesDrill } from '../../shared/links/studyLinks';

/** A day of the approval range as the label reads it (2026-10-01; an instant keeps its date). */
const day = (v: string) => (/^\d{8}$/.test(v) ? `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}` : v.slice(0, 10));

/** What a statistic's drill stands for: 来自统计：李医生 · 2026-10-01 至 2026-10-31 · 已审核 · CT. */
export function drillLabel(t: TFunction, drill: StudiesDrill): string {
  const parts: string[] = drill.from ? [drill.from] : [];
  for (const f of drill.filters) {
    if (f.field === 'reportApproved') {
      const [from = '', to = ''] = f.values;
      if (from && to) parts.push(t('studyList.drill.period', { from: day(from), to: day(to) }));
      else if (from) parts.push(t('studyList.drill.since', { from: day(from) }));
      else parts.push(t('studyList.drill.until', { to: day(to) }));
      parts.push(t('studyList.drill.approved'));
    } else if (f.field === 'modality' && f.values.join() !== drill.from) {
      parts.push(f.values.join(', '));
    } else if (f.field === 'reportPositive') {
      parts.push(t(f.values[0] === 'true' ? 'studyList.drill.positive' : 'studyList.drill.negative'));
    }
  }
  return t('studyList.drill.label', { parts: parts.join(' · ') });
}

/** The filters a link brought (a statistic's drill-down), shown above the list with a clear control. */
export function StudiesDrillTag({ drill, onClear }: { drill: StudiesDrill; onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <Space className="yyp-studies__drill" wrap>
      <Tag color="blue">{drillLabel(t, drill)}</Tag>
      <Button type="link" size="small" onClick={onClear}>
        {t('studyList.drill.clear')}
      </Button>
    </Space>
  );
}
