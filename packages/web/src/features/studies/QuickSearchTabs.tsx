import { SaveOutlined, SettingOutlined } from '@ant-design/icons';
import type { QuickSearch } from '@yyp/contracts';
import { Button, Space, Tabs } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

interface QuickSearchTabsProps {
  searches: QuickSearch[];
  activeId: string | null;
  onSelect: (id: string | null) => void;
  onSave: () => void;
  onManage: () => void;
}

const ALL = '__all__';

/** A quick search's name: a default one (today, yesterday, 7 days) in the interface language. */
export function quickSearchTitle(t: TFunction, q: QuickSearch): string {
  return q.titleKey ? t(`studyList.quickDefaults.${q.titleKey}`) : q.title;
}

/**
 * The user's quick searches as tabs over the list (spec 000 §2 "quick filters"), and "all exams".
 * A click on the tab already shown selects it too: the user's choice, made before the stored tab
 * came back, must win over it (StudiesPage restores the stored tab only when nothing was chosen).
 */
export function QuickSearchTabs({ searches, activeId, onSelect, onSave, onManage }: QuickSearchTabsProps) {
  const { t } = useTranslation();
  return (
    <Tabs
      className="yyp-quick-tabs"
      activeKey={activeId ?? ALL}
      onChange={(key) => onSelect(key === ALL ? null : key)}
      onTabClick={(key) => {
        if (key === (activeId ?? ALL)) onSelect(key === ALL ? null : key);
      }}
      items={[
        { key: ALL, label: t('studyList.all') },
        ...searches.map((q) => ({ key: q.id, label: quickSearchTitle(t, q) })),
      ]}
      tabBarExtraContent={
        <Space>
          <Button size="small" icon={<SaveOutlined />} onClick={onSave}>
            {t('studyList.saveQuick')}
          </Button>
          <Button size="small" icon={<SettingOutlined />} aria-label={t('studyList.manageQuick')} onClick={onManage} />
        </Space>
      }
    />
  );
}
