import type { Group } from '@yyp/contracts';
import { Select, Space, Typography } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

interface GroupPickerProps {
  groups: Group[];
  value: Group;
  onChange: (groupId: string) => void;
}

/** Which group an admin page acts on; a single group is shown, not offered. */
export function GroupPicker({ groups, value, onChange }: GroupPickerProps) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Space size={8} className="yyp-group-picker">
      <label htmlFor={id} className="yyp-muted">
        {t('accountsAdmin.group')}
      </label>
      {groups.length > 1 ? (
        <Select
          id={id}
          value={value.id}
          onChange={onChange}
          options={groups.map((g) => ({ value: g.id, label: g.displayName }))}
          popupMatchSelectWidth={false}
          className="yyp-group-picker__select"
        />
      ) : (
        <Typography.Text strong id={id}>
          {value.displayName}
        </Typography.Text>
      )}
    </Space>
  );
}
