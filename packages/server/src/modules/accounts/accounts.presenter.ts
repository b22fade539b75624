import type { AccountSuggestion, User } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';

/**
 * Shapes an account row to the contract's User: the hash, lock and token fields never leave. The
 * row keeps the avatar's and signature's blob keys; the User carries URLs that show them (or null).
 */
export function presentUser(row: AccountRow, urls: { avatar: string | null; signature: string | null }): User {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    avatar: urls.avatar,
    signature: urls.signature,
    canCreateGroup: row.canCreateGroup,
    registry: row.registry,
    domainName: row.domainName,
    mobile: row.mobile,
    licenseIssuer: row.licenseIssuer,
    professionalTitle: row.professionalTitle,
    loginType: row.source === 'sso' ? 'sso' : 'normal',
    isPlatformAdmin: row.isPlatformAdmin,
    preferences: row.preferences,
    hasPassword: row.passwordHash !== null,
  };
}

export function presentSuggestion(row: Pick<AccountRow, 'id' | 'username' | 'name'>): AccountSuggestion {
  return { id: row.id, username: row.username, name: row.name };
}

/** 13812345678 → 138****5678; short numbers keep only their last two digits. */
export function maskMobile(mobile: string | null): string | null {
  if (!mobile) return null;
  if (mobile.length >= 11) return `${mobile.slice(0, 3)}${'*'.repeat(mobile.length - 7)}${mobile.slice(-4)}`;
  return `${'*'.repeat(Math.max(0, mobile.length - 2))}${mobile.slice(-2)}`;
}
