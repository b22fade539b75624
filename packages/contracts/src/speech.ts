import { z } from 'zod';
import { LANGUAGES, type Language } from './limits.js';

/**
 * Text-to-speech (spec 000 §9 "Text-to-speech announces queue calls"; spec 001 §7 Queue calling:
 * `POST /yyp/api/text2speech` with {text}, the answer is audio). Unlike the other calls it is not
 * under API_BASE, so its entry names the full path (defineCall takes paths under API_BASE only).
 * Callers: a signed-in account (`Authorization: Bearer <token>`) or a waiting-room screen
 * (`Authorization: Screen <token>`). The answer is a WAV file (audio/wav).
 */
export const SPEECH_MAX_TEXT = 200;
/** espeak-ng words per minute: the default, and the range a caller may ask for */
export const SPEECH_DEFAULT_SPEED = 150;
export const SPEECH_MIN_SPEED = 80;
export const SPEECH_MAX_SPEED = 300;

export const text2speechBodySchema = z.object({
  /** what is said: 1 to SPEECH_MAX_TEXT characters (after trimming) */
  text: z.string().trim().min(1).max(SPEECH_MAX_TEXT),
  /**
   * the interface language the announcement belongs to: Mandarin for chs and tib, English for en.
   * Default: the account's language, else the request's Accept-Language, else chs.
   */
  lang: z.enum(LANGUAGES).optional(),
  speed: z.number().int().min(SPEECH_MIN_SPEED).max(SPEECH_MAX_SPEED).optional(),
});
export type Text2SpeechBody = z.input<typeof text2speechBodySchema>;

export const SPEECH_AUDIO_TYPE = 'audio/wav';

export const speechCalls = {
  text2speech: Object.freeze({
    method: 'POST',
    /** full path: not under API_BASE */
    path: '/yyp/api/text2speech',
    body: text2speechBodySchema,
    /** the answer is a file of this type, not JSON */
    answerType: SPEECH_AUDIO_TYPE,
  } as const),
};

/** The espeak-ng voice of an interface language: Mandarin (`cmn`) for chs and tib, English for en. */
export function speechVoice(language: Language): 'cmn' | 'en' {
  return language === 'en' ? 'en' : 'cmn';
}
