import { FilterOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Badge, Button, DatePicker, Input, Select, Space, type InputRef } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fromDay, toDay } from '../../shared/format/dates';

export const MODALITIES = ['CT', 'MR', 'DX', 'CR', 'US', 'MG', 'NM', 'PT', 'XA', 'RF', 'ES', 'OT'];

interface StudySearchBarProps {
  keyword: string;
  modalities: string[];
  studyDate: [string, string] | null;
  advancedCount: number;
  onKeyword: (value: string) => void;
  onModalities: (value: string[]) => void;
  onStudyDate: (value: [string, string] | null) => void;
  onSearch: () => void;
  onReset: () => void;
  onAdvanced: () => void;
  onRefresh: () => void;
}

/** The search bar: keyword (Enter searches, "/" focuses it), modality, study dates, advanced search. */
export function StudySearchBar(props: StudySearchBarProps) {
  const { t } = useTranslation();
  const input = useRef<InputRef>(null);

  useEffect(() => {
    const handleKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing =
        target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable);
      if (event.key === '/' && !typing) {
        event.preventDefault();
        input.current?.focus();
      }
    };
    window.addEventListener('keydown', handleKey);
    return () => window.removeEventListener('keydown', handleKey);
  }, []);

  const range: [Dayjs, Dayjs] | null = props.studyDate
    ? [
        dayjs(fromDay(props.studyDate[0] || props.studyDate[1])),
        dayjs(fromDay(props.studyDate[1] || props.studyDate[0])),
      ]
    : null;

  return (
    <div className="yyp-study-search">
      <Input
        ref={input}
        allowClear
        className="yyp-study-search__keyword"
        prefix={<SearchOutlined />}
        placeholder={t('studyList.searchPlaceholder')}
        aria-label={t('studyList.searchPlaceholder')}
        value={props.keyword}
        onChange={(e) => props.onKeyword(e.target.value)}
        onPressEnter={props.onSearch}
      />
      <Select
        mode="multiple"
        allowClear
        className="yyp-study-search__modality"
        placeholder={t('studyList.modalityPlaceholder')}
        aria-label={t('studyList.modalityPlaceholder')}
        value={props.modalities}
        options={MODALITIES.map((m) => ({ value: m, label: m }))}
        onChange={props.onModalities}
        maxTagCount="responsive"
      />
      <DatePicker.RangePicker
        value={range}
        allowEmpty={[true, true]}
        aria-label={t('studyList.quickDate')}
        onChange={(value) => {
          const [a, b] = value ?? [null, null];
          props.onStudyDate(a || b ? [a ? toDay(a.toDate()) : '', b ? toDay(b.toDate()) : ''] : null);
        }}
      />
      <Space wrap>
        <Button type="primary" icon={<SearchOutlined />} onClick={props.onSearch}>
          {t('studyList.search')}
        </Button>
        <Badge count={props.advancedCount} size="small">
          <Button icon={<FilterOutlined />} onClick={props.onAdvanced}>
            {t('studyList.advanced')}
          </Button>
        </Badge>
        <Button onClick={props.onReset}>{t('studyList.reset')}</Button>
        <Button icon={<ReloadOutlined />} aria-label={t('studyList.refresh')} onClick={props.onRefresh} />
      </Space>
    </div>
  );
}
