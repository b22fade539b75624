/** Escapes LIKE/ILIKE wildcards so user text matches literally (backslash is PostgreSQL's default escape). */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
