import { CheckOutlined, GlobalOutlined } from '@ant-design/icons';
import { LANGUAGES, type Language } from '@yyp/contracts';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';

interface LanguageSwitchProps {
  value: Language;
  onChange: (language: Language) => void;
  /** 'inverse' for dark backgrounds. */
  tone?: 'default' | 'inverse';
}

/** Language menu; each language is named in its own script so anyone can find theirs. */
export function LanguageSwitch({ value, onChange, tone = 'default' }: LanguageSwitchProps) {
  const { t } = useTranslation();
  const items: MenuProps['items'] = LANGUAGES.map((language) => ({
    key: language,
    label: t(`language.${language}`),
    icon: language === value ? <CheckOutlined /> : <span className="yyp-menu-icon-spacer" />,
  }));

  function handleClick({ key }: { key: string }) {
    const next = LANGUAGES.find((language) => language === key);
    if (next && next !== value) {
      onChange(next);
    }
  }

  return (
    <Dropdown menu={{ items, onClick: handleClick, selectable: true, selectedKeys: [value] }} trigger={['click']}>
      <Button
        type="text"
        icon={<GlobalOutlined />}
        aria-label={t('language.label')}
        className={tone === 'inverse' ? 'yyp-language-switch yyp-language-switch--inverse' : 'yyp-language-switch'}
      >
        {t(`language.${value}`)}
      </Button>
    </Dropdown>
  );
}
