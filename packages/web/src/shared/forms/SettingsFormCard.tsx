import { Button, Card, Form, Typography, type FormInstance } from 'antd';
import type { FormLayout } from 'antd/es/form/Form';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../notify/useNotify';
import { showOnField, type FieldRefusals } from './fieldRefusal';

/**
 * The settings cards of a group, an organization and one's profile: a card holding a form that
 * edits one record, filled from it (again whenever it changes) and saved with a toast.
 */

/**
 * The form of `record`: filled with `toValues(record)` whenever the record changes (a refetch after
 * a save elsewhere). `toValues` is a module-level function, so it does not change between renders.
 */
export function useRecordForm<R, V>(record: R, toValues: (record: R) => V): FormInstance<V> {
  const [form] = Form.useForm<V>();
  useEffect(() => {
    form.setFieldsValue(toValues(record) as Parameters<FormInstance<V>['setFieldsValue']>[0]);
  }, [form, record, toValues]);
  return form;
}

/**
 * Runs a save: a success toast with `savedMessage`; a refusal named in `onField` on its field; any
 * other failure as a toast.
 */
export function useSaveWithNotice<V>(form: FormInstance<V>, savedMessage: string) {
  const { t } = useTranslation();
  const notify = useNotify();
  return async function save(run: () => Promise<unknown>, onField: FieldRefusals = {}): Promise<void> {
    try {
      await run();
      notify.success(savedMessage);
    } catch (error) {
      if (!showOnField(form as FormInstance, t, error, onField)) notify.error(error);
    }
  };
}

interface SettingsFormCardProps<V> {
  title: ReactNode;
  description?: ReactNode;
  /** The form's name (ids of its fields). */
  name: string;
  form: FormInstance<V>;
  layout?: FormLayout;
  initialValues: V;
  onFinish: (values: V) => void | Promise<void>;
  saving: boolean;
  children: ReactNode;
}

/** A borderless card with its description, the form and the Save button under the fields. */
export function SettingsFormCard<V extends object>(props: SettingsFormCardProps<V>) {
  const { title, description, name, form, layout, initialValues, onFinish, saving, children } = props;
  const { t } = useTranslation();
  return (
    <Card variant="borderless" title={title}>
      {description && <Typography.Paragraph type="secondary">{description}</Typography.Paragraph>}
      <Form<V>
        name={name}
        form={form}
        {...(layout ? { layout } : {})}
        initialValues={initialValues as Record<string, unknown>}
        onFinish={onFinish}
      >
        {children}
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}
