import { checkUsername, USERNAME_MAX } from '@yyp/contracts';

// How a single-sign-on identity's claims become an account's fields (docs/sso.md "The settings").

/** The claim at a name, dotted names reaching into objects (e.g. "ext.staff_id"); a string or null. */
export function claimValue(claims: Record<string, unknown>, name: string): string | null {
  if (!name) return null;
  let value: unknown = name in claims ? claims[name] : undefined;
  if (value === undefined && name.includes('.')) {
    value = name.split('.').reduce<unknown>((at, key) => {
      return at && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined;
    }, claims);
  }
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** A username yyp accepts from a claim: the allowed characters kept (an e-mail gives its local part). */
export function usernameFromClaim(value: string | null): string | null {
  if (!value) return null;
  const local = value.includes('@') ? value.slice(0, value.indexOf('@')) : value;
  const cleaned = local.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  const cut = cleaned.slice(0, USERNAME_MAX - 4);
  return cut && checkUsername(cut) === null ? cut : null;
}
