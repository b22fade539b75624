import {
  PASSWORD_MAX,
  PASSWORD_MIN,
  STRONG_PASSWORD_MIN,
  USERNAME_MAX,
  checkPassword,
  checkUsername,
} from '@yyp/contracts';
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';

/** Form rules built on the shared validators, so the form and the server judge alike. */

export function requiredRule(t: TFunction, field: string): FormRule {
  return { required: true, whitespace: true, message: t('common.required', { field }) };
}

/** A multiple choice that needs at least one item chosen. */
export function requiredChoiceRule(t: TFunction, field: string): FormRule {
  return { required: true, type: 'array', min: 1, message: t('common.required', { field }) };
}

export function usernameRule(t: TFunction): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const problem = checkUsername(typeof value === 'string' ? value : '');
      if (problem === null || problem === 'required') {
        return;
      }
      throw new Error(t(`validation.${problem}`, { max: USERNAME_MAX }));
    },
  };
}

export function passwordPolicyRule(t: TFunction, strong: boolean): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const problem = checkPassword(typeof value === 'string' ? value : '', strong);
      if (problem === null || problem === 'required') {
        return;
      }
      throw new Error(
        t(`validation.${problem}`, { min: strong ? STRONG_PASSWORD_MIN : PASSWORD_MIN, max: PASSWORD_MAX }),
      );
    },
  };
}

export function passwordPolicyHint(t: TFunction, strong: boolean): string {
  return strong ? t('validation.strongPasswordPolicy') : t('validation.passwordPolicy');
}

/** The confirmation must repeat the field named `passwordField`. */
export function confirmRule(t: TFunction, passwordField: string): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      if (!value || getFieldValue(passwordField) === value) {
        return;
      }
      throw new Error(t('validation.passwordMismatch'));
    },
  });
}

/** A new password must differ from the one in `oldField`. */
export function differsFromRule(t: TFunction, oldField: string): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      if (value && value === getFieldValue(oldField)) {
        throw new Error(t('validation.sameAsOld'));
      }
    },
  });
}

export function maxLengthRule(t: TFunction, max: number): FormRule {
  return { max, message: t('validation.tooLong', { max }) };
}
