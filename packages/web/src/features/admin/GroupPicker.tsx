import type { Group } from '@yyp/contracts';
import { Select, Space, Typography } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

interface HeadingPickerProps {
  label: string;
  options: { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
}

/** A labelled choice in an admin page's heading; a single option is shown, not offered. */
export function HeadingPicker({ label, options, value, onChange }: HeadingPickerProps) {
  const id = useId();
  return (
    <Space size={8} className="yyp-group-picker">
      <label htmlFor={id} className="yyp-muted">
        {label}
      </label>
      {options.length > 1 ? (
        <Select
          id={id}
          value={value}
          onChange={onChange}
          options={options}
          popupMatchSelectWidth={false}
          className="yyp-group-picker__select"
        />
      ) : (
        <Typography.Text strong id={id}>
          {options[0]?.label}
        </Typography.Text>
      )}
    </Space>
  );
}

interface GroupPickerProps {
  groups: Group[];
  /** one of `groups` */
  value: Group;
  onChange: (groupId: string) => void;
}

/** Which group an admin page acts on; a single group is shown, not offered. */
export function GroupPicker({ groups, value, onChange }: GroupPickerProps) {
  const { t } = useTranslation();
  return (
    <HeadingPicker
      label={t('accountsAdmin.group')}
      options={groups.map((g) => ({ value: g.id, label: g.displayName }))}
      value={value.id}
      onChange={onChange}
    />
  );
}
