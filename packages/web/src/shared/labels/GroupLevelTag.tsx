import { GROUP_ACCESS_LEVELS, type GroupAccessLevel } from '@yyp/contracts';
import { Select, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { GROUP_LEVEL_COLORS, GROUP_LEVEL_NAMES, groupLevelName } from '../groups/levels';

/** A group access level as a coloured tag with its meaning on hover. */
export function GroupLevelTag({ level }: { level: number }) {
  const { t } = useTranslation();
  const name = groupLevelName(level);
  if (!name) {
    return <Tag>{level}</Tag>;
  }
  return (
    <Tooltip title={t(`groupLevelHints.${name}`)}>
      <Tag color={GROUP_LEVEL_COLORS[name]}>{t(`groupLevels.${name}`)}</Tag>
    </Tooltip>
  );
}

interface GroupLevelSelectProps {
  value?: GroupAccessLevel;
  onChange?: (value: GroupAccessLevel) => void;
  disabled?: boolean;
  id?: string;
  'aria-label'?: string;
  size?: 'small' | 'middle';
}

/** Choice of a group access level; each option says what the level may do. */
export function GroupLevelSelect({ value, onChange, disabled, id, size, ...rest }: GroupLevelSelectProps) {
  const { t } = useTranslation();
  const options = GROUP_LEVEL_NAMES.map((name) => ({
    value: GROUP_ACCESS_LEVELS[name],
    label: t(`groupLevels.${name}`),
    title: t(`groupLevelHints.${name}`),
  }));
  return (
    <Select<GroupAccessLevel>
      id={id}
      size={size}
      value={value}
      onChange={onChange}
      disabled={disabled}
      options={options}
      aria-label={rest['aria-label']}
      popupMatchSelectWidth={false}
      className="yyp-level-select"
    />
  );
}
