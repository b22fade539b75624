import { LANGUAGES, type Language } from '@yyp/contracts';

/** Pure parts of text-to-speech: the espeak-ng command line, the language of a request, WAV sizes. */

/** espeak-ng's arguments: the text comes on stdin (never argv: a text starting with '-' is no option). */
export function espeakArgs(voice: string, speed: number): string[] {
  // -b 1: the input is UTF-8; --stdout: the WAV on stdout.
  return ['-v', voice, '-s', String(speed), '-b', '1', '--stdout'];
}

const ACCEPT_TO_LANGUAGE: [RegExp, Language][] = [
  [/^zh\b/i, 'chs'],
  [/^bo\b/i, 'tib'],
  [/^en\b/i, 'en'],
];

/** The first of our languages an Accept-Language header names (in its order of preference), else undefined. */
export function languageFromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((r) => r.tag && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    if ((LANGUAGES as readonly string[]).includes(tag)) return tag as Language;
    const found = ACCEPT_TO_LANGUAGE.find(([pattern]) => pattern.test(tag));
    if (found) return found[1];
  }
  return undefined;
}

/**
 * espeak-ng writes to a pipe without knowing the length, so its RIFF and data sizes are
 * placeholders (0x7ffff000): players and soxi then see no duration. Writes the true sizes.
 * Answers the buffer unchanged when it is not a RIFF/WAVE file with a data chunk.
 */
export function fixWavSizes(wav: Buffer): Buffer {
  if (wav.length < 12 || wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 12) !== 'WAVE') {
    return wav;
  }
  const out = Buffer.from(wav);
  out.writeUInt32LE(out.length - 8, 4);
  let at = 12;
  while (at + 8 <= out.length) {
    const id = out.toString('latin1', at, at + 4);
    if (id === 'data') {
      out.writeUInt32LE(out.length - at - 8, at + 4);
      return out;
    }
    at += 8 + out.readUInt32LE(at + 4) + (out.readUInt32LE(at + 4) % 2);
  }
  return out;
}

/** Seconds of PCM audio in a WAV file (its fmt and data chunks), or null when it is none. */
export function wavDurationSeconds(wav: Buffer): number | null {
  if (wav.length < 12 || wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 12) !== 'WAVE') {
    return null;
  }
  let byteRate: number | null = null;
  let at = 12;
  while (at + 8 <= wav.length) {
    const id = wav.toString('latin1', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 16 <= wav.length) byteRate = wav.readUInt32LE(at + 8 + 8);
    if (id === 'data') return byteRate ? Math.min(size, wav.length - at - 8) / byteRate : null;
    at += 8 + size + (size % 2);
  }
  return null;
}
