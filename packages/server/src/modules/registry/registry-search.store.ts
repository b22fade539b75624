import { and, like, or, sql, type SQL } from 'drizzle-orm';
import { escapeLike, foldsOnlyAscii } from '../../db/like.js';
import { registryPatients } from '../../db/schema.js';

/**
 * A regular expression finding `q` in any case: each cased letter as the class of its two cases,
 * ASCII punctuation escaped. Several times faster over a group's patients than ilike or lower().
 */
function anyCase(q: string): string {
  return [...q]
    .map((c) => {
      const [lower, upper] = [c.toLowerCase(), c.toUpperCase()];
      if (lower !== upper && [...lower].length === 1 && [...upper].length === 1) return `[${lower}${upper}]`;
      return /[ -/:-@[-`{-~]/.test(c) ? `\\${c}` : c;
    })
    .join('');
}

/**
 * A registry patient found by what the search box holds: the name contains it (in any case), or the
 * pinyin initials start with it. Both ask the GIN index on `search_keys` (migration 0031) first:
 * the name's keys hold each character and pair of adjacent characters of the lower-cased name, so
 * a name containing `q` holds every key of `q`; the index narrows the group's patients to those,
 * and the name itself is then checked. A search with a cased letter beyond ASCII, which PostgreSQL's
 * lower() may not fold, reads the names without the index.
 */
export function patientTextMatch(q: string): SQL {
  const escaped = escapeLike(q);
  const name =
    q.toLowerCase() === q.toUpperCase()
      ? like(registryPatients.name, `%${escaped}%`)
      : sql`${registryPatients.name} ~ ${anyCase(q)}`;
  const byName = foldsOnlyAscii(q)
    ? and(sql`${registryPatients.searchKeys} @> registry_search_keys(${q}::text, '')`, name)!
    : name;
  const byPinyin = sql`${registryPatients.searchKeys} @> array['p:' || lower(${q}::text)]`;
  return or(byName, byPinyin)!;
}
