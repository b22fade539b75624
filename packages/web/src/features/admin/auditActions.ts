import { DICTIONARY_KINDS, type DictionaryKind } from '@yyp/contracts';
import type { TFunction } from 'i18next';

/**
 * Audit action codes the server writes (dotted, e.g. "group.member.add"), as translation keys
 * (dots become underscores: i18next reads dots as nesting). Codes not listed show raw only.
 */
export const AUDIT_ACTION_KEYS = [
  'account_login',
  'account_logout',
  'account_register',
  'account_change_password',
  'account_update_password',
  'account_create',
  'account_enable',
  'account_disable',
  'account_unlock',
  'account_reset_password',
  'audit_read',
  'domain_update',
  'group_create',
  'group_update',
  'group_delete',
  'group_quit',
  'group_member_add',
  'group_member_update',
  'group_member_remove',
  'bucket_create',
  'bucket_update',
  'bucket_delete',
  'bucket_member_add',
  'bucket_member_update',
  'bucket_member_remove',
  'bucket_upload_token_rotate',
  'bucket_upload_token_revoke',
  'bucket_dictionary_add',
  'bucket_dictionary_update',
  'bucket_dictionary_delete',
  'role_create',
  'role_update',
  'role_delete',
  'role_members',
  'rule_assign_create',
  'rule_assign_update',
  'rule_assign_delete',
  'rule_color_create',
  'rule_color_update',
  'rule_color_delete',
  'permission_denied',
] as const;
export type AuditActionKey = (typeof AUDIT_ACTION_KEYS)[number];

/** Prefixes offered in the action filter (the server matches codes by prefix). */
export const AUDIT_ACTION_PREFIXES = ['account.', 'group.', 'bucket.', 'role.', 'rule.', 'audit.', 'permission.'];

const DICTIONARY_ACTION = /^bucket\.([a-z-]+)\.(add|update|delete)$/;

function isDictionaryKind(value: string): value is DictionaryKind {
  return (DICTIONARY_KINDS as readonly string[]).includes(value);
}

function isAuditActionKey(value: string): value is AuditActionKey {
  return (AUDIT_ACTION_KEYS as readonly string[]).includes(value);
}

/** A translated description of an audit action code, or null when this release does not know it. */
export function describeAuditAction(t: TFunction, action: string): string | null {
  const dictionary = DICTIONARY_ACTION.exec(action);
  if (dictionary && isDictionaryKind(dictionary[1] ?? '')) {
    const kind = dictionary[1] as DictionaryKind;
    const key = `bucket_dictionary_${dictionary[2] as 'add' | 'update' | 'delete'}` as const;
    return `${t(`auditActions.${key}`)} · ${t(`dictionaryKinds.${kind}`)}`;
  }
  const key = action.replace(/\./g, '_');
  return isAuditActionKey(key) ? t(`auditActions.${key}`) : null;
}
