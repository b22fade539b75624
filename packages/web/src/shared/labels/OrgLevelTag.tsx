import { ORG_ACCESS_LEVELS, type OrgAccessLevel } from '@yyp/contracts';
import { Select, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<OrgAccessLevel, string | undefined> = {
  member: undefined,
  admin: 'blue',
  collaborator: 'cyan',
  contentManager: 'gold',
};

export function isOrgAccessLevel(value: string | null | undefined): value is OrgAccessLevel {
  return typeof value === 'string' && (ORG_ACCESS_LEVELS as readonly string[]).includes(value);
}

/** An organization access level as a coloured tag with its meaning on hover. */
export function OrgLevelTag({ level }: { level: string }) {
  const { t } = useTranslation();
  if (!isOrgAccessLevel(level)) {
    return <Tag>{level}</Tag>;
  }
  return (
    <Tooltip title={t(`orgLevelHints.${level}`)}>
      <Tag color={COLORS[level]}>{t(`orgLevels.${level}`)}</Tag>
    </Tooltip>
  );
}

interface OrgLevelSelectProps {
  value?: OrgAccessLevel;
  onChange?: (value: OrgAccessLevel) => void;
  disabled?: boolean;
  id?: string;
  size?: 'small' | 'middle';
  'aria-label'?: string;
}

export function OrgLevelSelect({ value, onChange, disabled, id, size, ...rest }: OrgLevelSelectProps) {
  const { t } = useTranslation();
  return (
    <Select<OrgAccessLevel>
      id={id}
      size={size}
      value={value}
      onChange={onChange}
      disabled={disabled}
      aria-label={rest['aria-label']}
      popupMatchSelectWidth={false}
      className="yyp-level-select"
      options={ORG_ACCESS_LEVELS.map((level) => ({
        value: level,
        label: t(`orgLevels.${level}`),
        title: t(`orgLevelHints.${level}`),
      }))}
    />
  );
}
