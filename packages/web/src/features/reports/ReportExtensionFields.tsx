import { useQuery } from '@tanstack/react-query';
import type { DictionaryItem, ReportContent } from '@yyp/contracts';
import { Input, InputNumber, Select, Typography } from 'antd';
import { fetchDictionary } from '../../api/organizations';
import { queryKeys } from '../../api/queryClient';

type ExtensionValues = ReportContent['extensions'];

interface ExtensionConfig {
  id: string;
  label: string;
  type: 'text' | 'number' | 'select' | 'date';
  options: string[];
  required: boolean;
}

/** The organization's extension configs that extend a report's content (scope report), in order. */
export function reportExtensions(items: readonly DictionaryItem[]): ExtensionConfig[] {
  return [...items]
    .sort((a, b) => a.sort - b.sort)
    .filter((item) => item.data.scope === 'report')
    .map((item) => ({
      id: item.id,
      label: typeof item.data.label === 'string' && item.data.label ? item.data.label : item.name,
      type: (['text', 'number', 'select', 'date'] as const).find((t) => t === item.data.type) ?? 'text',
      options: Array.isArray(item.data.options)
        ? item.data.options.filter((o): o is string => typeof o === 'string')
        : [],
      required: item.data.required === true,
    }));
}

interface ReportExtensionFieldsProps {
  bucketId: string;
  values: ExtensionValues;
  writable: boolean;
  onChange: (values: ExtensionValues) => void;
}

/**
 * The report extension fields an organization defines (spec 000 §2 "report extensions"): text,
 * number, choice or date, some required before the report is handed on. None defined: nothing shown.
 */
export function ReportExtensionFields({ bucketId, values, writable, onChange }: ReportExtensionFieldsProps) {
  const configs = useQuery({
    queryKey: queryKeys.dictionary(bucketId, 'extension-configs'),
    queryFn: ({ signal }) => fetchDictionary(bucketId, 'extension-configs', signal),
    enabled: bucketId !== '',
    staleTime: 5 * 60_000,
    select: reportExtensions,
  });
  const set = (id: string, value: string | number | null) => {
    const next = { ...values };
    if (value === null || value === '') {
      delete next[id];
    } else {
      next[id] = value;
    }
    onChange(next);
  };
  return (configs.data ?? []).map((config) => {
    const id = `report-ext-${config.id}`;
    const value = values[config.id];
    let field;
    if (config.type === 'number') {
      field = (
        <InputNumber
          id={id}
          size="small"
          disabled={!writable}
          value={typeof value === 'number' ? value : null}
          onChange={(v) => set(config.id, typeof v === 'number' ? v : null)}
        />
      );
    } else if (config.type === 'select') {
      field = (
        <Select
          id={id}
          size="small"
          allowClear
          className="yyp-report__ext-select"
          disabled={!writable}
          value={typeof value === 'string' && value ? value : undefined}
          options={config.options.map((o) => ({ value: o, label: o }))}
          onChange={(v: string | undefined) => set(config.id, v ?? null)}
        />
      );
    } else {
      field = (
        <Input
          id={id}
          size="small"
          type={config.type === 'date' ? 'date' : 'text'}
          maxLength={1000}
          disabled={!writable}
          value={typeof value === 'string' ? value : value === undefined ? '' : String(value)}
          onChange={(e) => set(config.id, e.target.value)}
        />
      );
    }
    return (
      <div key={config.id} className="yyp-report__extra">
        <label htmlFor={id}>
          <Typography.Text type="secondary">
            {config.required && <span className="yyp-report__required">* </span>}
            {config.label}
          </Typography.Text>
        </label>
        {field}
      </div>
    );
  });
}
