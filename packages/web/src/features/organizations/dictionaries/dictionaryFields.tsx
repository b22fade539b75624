import { dictionaryNameMax, type DictionaryItem, type DictionaryKind } from '@yyp/contracts';
import { Form, Input, InputNumber, Select, Switch, Tag, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { maxLengthRule, requiredRule } from '../../../shared/forms/formRules';

/** Department id "0" is the built-in "none" (spec 000 §3): shown translated, never edited. */
export const NONE_DEPARTMENT_ID = '0';

export function isBuiltIn(kind: DictionaryKind, item: DictionaryItem): boolean {
  return kind === 'departments' && (item.id === NONE_DEPARTMENT_ID || item.data.none === true);
}

export function itemName(t: TFunction, kind: DictionaryKind, item: DictionaryItem): string {
  return isBuiltIn(kind, item) ? t('dictionary.none') : item.name;
}

export const TAG_COLORS = ['blue', 'green', 'red', 'orange', 'gold', 'purple', 'cyan', 'magenta'] as const;
const CRITICAL_LEVELS = ['high', 'medium', 'low'] as const;
const EXTENSION_TYPES = ['text', 'number', 'select', 'date'] as const;
type ExtensionType = (typeof EXTENSION_TYPES)[number];

export interface ItemFormValues {
  name: string;
  sort: number;
  data: {
    physicianType?: number;
    departmentId?: string;
    modality?: string;
    englishName?: string;
    color?: string;
    level?: (typeof CRITICAL_LEVELS)[number];
    label?: string;
    type?: ExtensionType;
    options?: string[];
    required?: boolean;
  };
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function toFormValues(kind: DictionaryKind, item: DictionaryItem | null): ItemFormValues {
  const data = item?.data ?? {};
  switch (kind) {
    case 'doctors':
      return {
        name: item?.name ?? '',
        sort: item?.sort ?? 0,
        data: {
          physicianType: typeof data.physicianType === 'number' ? data.physicianType : 1,
          departmentId: str(data.departmentId) ?? NONE_DEPARTMENT_ID,
        },
      };
    case 'extension-configs':
      return {
        name: item?.name ?? '',
        sort: item?.sort ?? 0,
        data: {
          label: str(data.label) ?? '',
          type: EXTENSION_TYPES.find((type) => type === data.type) ?? 'text',
          options: Array.isArray(data.options) ? data.options.filter((o): o is string => typeof o === 'string') : [],
          required: data.required === true,
        },
      };
    default:
      return {
        name: item?.name ?? '',
        sort: item?.sort ?? 0,
        data: {
          modality: str(data.modality),
          englishName: str(data.englishName),
          color: str(data.color),
          level: CRITICAL_LEVELS.find((level) => level === data.level),
        },
      };
  }
}

/** The `data` the server's dictionaryDataSchemas accept for each kind; empty optional fields are left out. */
export function toRequestData(kind: DictionaryKind, values: ItemFormValues): Record<string, unknown> {
  const d = values.data;
  const keep = (entries: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined && v !== ''));
  switch (kind) {
    case 'doctors':
      return { physicianType: d.physicianType ?? 1, departmentId: d.departmentId ?? NONE_DEPARTMENT_ID };
    case 'bodyparts':
      return keep({ modality: d.modality?.trim(), englishName: d.englishName?.trim() });
    case 'tags':
      return keep({ color: d.color });
    case 'critical-values':
      return keep({ level: d.level });
    case 'extension-configs':
      return keep({
        label: d.label?.trim() ?? '',
        type: d.type ?? 'text',
        options: d.type === 'select' ? (d.options ?? []) : undefined,
        required: d.required ?? false,
      });
    default:
      return {};
  }
}

/** The form fields of one kind: the name (with its length limit, tags 10) and the kind's data. */
export function ItemFields({
  kind,
  t,
  departments,
  type,
}: {
  kind: DictionaryKind;
  t: TFunction;
  departments: DictionaryItem[];
  type?: ExtensionType;
}) {
  const max = dictionaryNameMax[kind];
  const nameInput: ReactNode =
    kind === 'critical-values' ? (
      <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={max} showCount autoFocus />
    ) : (
      <Input maxLength={max} showCount={kind === 'tags'} autoFocus />
    );
  return (
    <>
      <Form.Item
        name="name"
        label={t('dictionary.name')}
        rules={[requiredRule(t, t('dictionary.name')), maxLengthRule(t, max)]}
      >
        {nameInput}
      </Form.Item>
      {kind === 'doctors' && (
        <div className="yyp-form-grid">
          <Form.Item name={['data', 'physicianType']} label={t('dictionary.physicianType')}>
            <InputNumber min={1} max={9} precision={0} />
          </Form.Item>
          <Form.Item name={['data', 'departmentId']} label={t('dictionary.department')}>
            <Select
              options={departments.map((d) => ({ value: d.id, label: itemName(t, 'departments', d) }))}
              showSearch={{ optionFilterProp: 'label' }}
            />
          </Form.Item>
        </div>
      )}
      {kind === 'bodyparts' && (
        <div className="yyp-form-grid">
          <Form.Item name={['data', 'modality']} label={t('dictionary.modality')} rules={[maxLengthRule(t, 16)]}>
            <Input placeholder={t('assignRules.modalityPlaceholder')} />
          </Form.Item>
          <Form.Item name={['data', 'englishName']} label={t('dictionary.englishName')} rules={[maxLengthRule(t, 64)]}>
            <Input />
          </Form.Item>
        </div>
      )}
      {kind === 'tags' && (
        <Form.Item name={['data', 'color']} label={t('dictionary.color')}>
          <Select
            allowClear
            options={TAG_COLORS.map((color) => ({ value: color, label: <Tag color={color}>{color}</Tag> }))}
          />
        </Form.Item>
      )}
      {kind === 'critical-values' && (
        <Form.Item name={['data', 'level']} label={t('dictionary.level')}>
          <Select
            allowClear
            options={[
              { value: 'high', label: t('dictionary.levelHigh') },
              { value: 'medium', label: t('dictionary.levelMedium') },
              { value: 'low', label: t('dictionary.levelLow') },
            ]}
          />
        </Form.Item>
      )}
      {kind === 'extension-configs' && (
        <>
          <div className="yyp-form-grid">
            <Form.Item
              name={['data', 'label']}
              label={t('dictionary.label')}
              rules={[requiredRule(t, t('dictionary.label')), maxLengthRule(t, 64)]}
            >
              <Input />
            </Form.Item>
            <Form.Item name={['data', 'type']} label={t('dictionary.type')}>
              <Select
                options={[
                  { value: 'text', label: t('dictionary.typeText') },
                  { value: 'number', label: t('dictionary.typeNumber') },
                  { value: 'select', label: t('dictionary.typeSelect') },
                  { value: 'date', label: t('dictionary.typeDate') },
                ]}
              />
            </Form.Item>
          </div>
          {type === 'select' && (
            <Form.Item name={['data', 'options']} label={t('dictionary.options')} extra={t('dictionary.optionsHint')}>
              <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={[',']} />
            </Form.Item>
          )}
          <Form.Item name={['data', 'required']} label={t('dictionary.required')} valuePropName="checked">
            <Switch size="small" />
          </Form.Item>
        </>
      )}
      <Form.Item name="sort" label={t('dictionary.sort')}>
        <InputNumber min={0} max={100000} precision={0} />
      </Form.Item>
    </>
  );
}

/** Table columns for the kind's data, between the name and the order. */
export function dataColumns(
  kind: DictionaryKind,
  t: TFunction,
  departments: DictionaryItem[],
): TableColumnsType<DictionaryItem> {
  const data = (item: DictionaryItem, key: string) => str(item.data[key]) ?? '—';
  switch (kind) {
    case 'doctors':
      return [
        {
          key: 'physicianType',
          title: t('dictionary.physicianType'),
          render: (_, item) => (typeof item.data.physicianType === 'number' ? item.data.physicianType : 1),
        },
        {
          key: 'department',
          title: t('dictionary.department'),
          render: (_, item) => {
            const id = str(item.data.departmentId) ?? NONE_DEPARTMENT_ID;
            const department = departments.find((d) => d.id === id);
            return department ? itemName(t, 'departments', department) : t('dictionary.none');
          },
        },
      ];
    case 'bodyparts':
      return [
        { key: 'modality', title: t('dictionary.modality'), render: (_, item) => data(item, 'modality') },
        { key: 'englishName', title: t('dictionary.englishName'), render: (_, item) => data(item, 'englishName') },
      ];
    case 'critical-values':
      return [
        {
          key: 'level',
          title: t('dictionary.level'),
          render: (_, item) =>
            item.data.level === 'high'
              ? t('dictionary.levelHigh')
              : item.data.level === 'medium'
                ? t('dictionary.levelMedium')
                : item.data.level === 'low'
                  ? t('dictionary.levelLow')
                  : '—',
        },
      ];
    case 'extension-configs':
      return [
        { key: 'label', title: t('dictionary.label'), render: (_, item) => data(item, 'label') },
        {
          key: 'type',
          title: t('dictionary.type'),
          render: (_, item) => {
            const type = EXTENSION_TYPES.find((x) => x === item.data.type);
            const labels: Record<ExtensionType, string> = {
              text: t('dictionary.typeText'),
              number: t('dictionary.typeNumber'),
              select: t('dictionary.typeSelect'),
              date: t('dictionary.typeDate'),
            };
            return type ? labels[type] : '—';
          },
        },
        {
          key: 'required',
          title: t('dictionary.required'),
          render: (_, item) => (item.data.required === true ? t('group.on') : t('group.off')),
        },
      ];
    default:
      return [];
  }
}
