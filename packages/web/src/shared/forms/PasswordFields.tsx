import { Form, Input } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmRule, differsFromRule, passwordPolicyHint, passwordPolicyRule } from './formRules';

/**
 * The password fields of the account forms (register, reset, change, expired, create a member's
 * account): the required fields with the domain's policy, the confirmation and the old password,
 * written once so every form asks alike.
 */

interface NewPasswordFieldProps {
  name: string;
  label: string;
  /** domain.requireStrongPwd */
  strong: boolean;
  /** The new password must differ from this field's (the old password). */
  differsFrom?: string;
  /** Shown under the policy hint. */
  hint?: ReactNode;
}

/** A new password: required, following the domain's policy, its hint below. */
export function NewPasswordField({ name, label, strong, differsFrom, hint }: NewPasswordFieldProps) {
  const { t } = useTranslation();
  const policy = passwordPolicyHint(t, strong);
  return (
    <Form.Item
      name={name}
      label={label}
      extra={
        hint ? (
          <>
            <div>{policy}</div>
            <div>{hint}</div>
          </>
        ) : (
          policy
        )
      }
      {...(differsFrom ? { dependencies: [differsFrom] } : {})}
      rules={[
        { required: true, message: t('common.required', { field: label }) },
        passwordPolicyRule(t, strong),
        ...(differsFrom ? [differsFromRule(t, differsFrom)] : []),
      ]}
    >
      <Input.Password autoComplete="new-password" />
    </Form.Item>
  );
}

/** The field `confirm`, which must repeat the password of `of`. */
export function ConfirmPasswordField({ of, label }: { of: string; label: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="confirm"
      label={label}
      dependencies={[of]}
      rules={[{ required: true, message: t('common.required', { field: label }) }, confirmRule(t, of)]}
    >
      <Input.Password autoComplete="new-password" />
    </Form.Item>
  );
}

/** A new password and its confirmation. */
export function NewPasswordFields(props: NewPasswordFieldProps & { confirmLabel: string }) {
  const { confirmLabel, ...field } = props;
  return (
    <>
      <NewPasswordField {...field} />
      <ConfirmPasswordField of={field.name} label={confirmLabel} />
    </>
  );
}

/** Change a password: `oldPassword`, `newPassword` (differing from it) and `confirm`. */
export function ChangePasswordFields({ strong, autoFocus }: { strong: boolean; autoFocus?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="oldPassword"
        label={t('fields.oldPassword')}
        rules={[{ required: true, message: t('common.required', { field: t('fields.oldPassword') }) }]}
      >
        <Input.Password autoComplete="current-password" autoFocus={autoFocus} />
      </Form.Item>
      <NewPasswordFields
        name="newPassword"
        label={t('fields.newPassword')}
        confirmLabel={t('fields.confirmNewPassword')}
        strong={strong}
        differsFrom="oldPassword"
      />
    </>
  );
}
