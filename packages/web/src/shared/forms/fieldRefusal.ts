import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import { errorMessage } from '../../api/errorMessage';
import { hasCode, type ApiErrorCode } from '../../api/errors';

/** A refusal to show on the field it concerns instead of a toast: error code → field name. */
export type FieldRefusals = Partial<Record<ApiErrorCode, string>>;

/**
 * Shows the refusal on its field when `error` carries one of the codes of `fields` (a too simple
 * password with the domain's policy, `strong`); true when it did, false to let the caller toast it.
 */
export function showOnField(
  form: FormInstance,
  t: TFunction,
  error: unknown,
  fields: FieldRefusals,
  strong = false,
): boolean {
  const code = (Object.keys(fields) as ApiErrorCode[]).find((c) => hasCode(error, c));
  if (!code) return false;
  const context = code === 'PasswordTooSimple' ? { strongPassword: strong } : {};
  form.setFields([{ name: fields[code] as string, errors: [errorMessage(t, error, context)] }]);
  return true;
}
