import { errors } from '../../platform/errors.js';

/** How many rounds of drawing before giving up (each round asks the database once). */
const ROUNDS = 8;

/**
 * n distinct codes drawn with `draw` that `taken` (one question per round: which of these are in
 * use?) does not hold. Accession numbers and patient IDs are a day and six random digits: at a
 * thousand a day two draws of one day meet with a probability near 40 %, so every new code is
 * checked before it is written rather than left to a unique index's refusal.
 */
export async function freshCodes(
  n: number,
  draw: () => string,
  taken: (candidates: readonly string[]) => Promise<Set<string>>,
): Promise<string[]> {
  const found = new Set<string>();
  for (let round = 0; round < ROUNDS && found.size < n; round++) {
    const candidates = new Set<string>();
    for (let tries = 0; candidates.size < n - found.size && tries < 100 * n; tries++) {
      const c = draw();
      if (!found.has(c)) candidates.add(c);
    }
    if (candidates.size === 0) continue;
    const used = await taken([...candidates]);
    for (const c of candidates) if (!used.has(c)) found.add(c);
  }
  if (found.size < n) throw errors.conflict('No free number could be drawn; try again');
  return [...found];
}
