import { Form, Input, type InputProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { maxLengthRule, requiredRule, usernameRule } from './formRules';

/**
 * The username and name fields of the account forms (register, reset, expired password, profile,
 * create a member's account), with the shared rules; the input's own props (autoComplete, focus,
 * read-only) are passed through.
 */

export function UsernameField(input: InputProps) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="username"
      label={t('fields.username')}
      rules={[requiredRule(t, t('fields.username')), usernameRule(t)]}
    >
      <Input autoComplete="username" {...input} />
    </Form.Item>
  );
}

/** The person's name: required, at most 64 characters. */
export function NameField(input: InputProps) {
  const { t } = useTranslation();
  return (
    <Form.Item name="name" label={t('fields.name')} rules={[requiredRule(t, t('fields.name')), maxLengthRule(t, 64)]}>
      <Input autoComplete="name" {...input} />
    </Form.Item>
  );
}
