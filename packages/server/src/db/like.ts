/** Escapes LIKE/ILIKE wildcards so user text matches literally (backslash is PostgreSQL's default escape). */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * No cased letter beyond ASCII in `q`, which PostgreSQL's lower() may leave as it is (C collation):
 * only then may a search compare lower-cased keys (registry_search_keys) instead of the text itself.
 */
export function foldsOnlyAscii(q: string): boolean {
  return ![...q].some((c) => c.codePointAt(0)! > 0x7f && c.toLowerCase() !== c.toUpperCase());
}
