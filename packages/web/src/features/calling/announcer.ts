/**
 * Says queue calls aloud in the browser (issue 23 "Speech"): the server renders the announcement
 * (POST /yyp/api/text2speech → audio) and the page plays it; only when the server has no speech
 * engine (503) does the browser's own Web Speech API speak. Calls are said one after another, never
 * over each other; at most `maxPending` wait (a burst of calls drops the oldest unsaid ones rather
 * than growing without end on a screen that runs for days). Rendered audio is kept for the last
 * few texts (a call said again costs no second request).
 */

export type SpeechLanguage = 'chs' | 'en' | 'tib';

export interface AnnouncerDeps {
  /** renders `text`: the audio, or 'unavailable' when the server has no speech engine (503) */
  render(text: string, lang: SpeechLanguage): Promise<Blob | 'unavailable'>;
  /** plays rendered audio to its end */
  play(audio: Blob): Promise<void>;
  /** the browser's own speech (Web Speech API), when there is one */
  speak?(text: string, lang: SpeechLanguage): Promise<void>;
  /** a failure worth telling (the page shows it once); the queue goes on */
  onError?(error: unknown): void;
}

export interface Announcer {
  announce(text: string, lang: SpeechLanguage): void;
  /** stops after the current announcement and forgets what waits */
  dispose(): void;
  /** texts waiting (for tests and the page's own checks) */
  pending(): number;
}

const CACHE_SIZE = 16;

export function createAnnouncer(deps: AnnouncerDeps, maxPending = 3): Announcer {
  const waiting: { text: string; lang: SpeechLanguage }[] = [];
  const cache = new Map<string, Blob>();
  let running = false;
  let disposed = false;
  let engineMissing = false;

  async function sayOne(text: string, lang: SpeechLanguage): Promise<void> {
    const key = `${lang}\u0000${text}`;
    let audio = cache.get(key);
    if (!audio && !engineMissing) {
      const rendered = await deps.render(text, lang);
      if (rendered === 'unavailable') engineMissing = true;
      else audio = rendered;
    }
    if (audio) {
      cache.delete(key);
      cache.set(key, audio);
      while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      await deps.play(audio);
    } else if (deps.speak) {
      await deps.speak(text, lang);
    }
  }

  async function run(): Promise<void> {
    running = true;
    while (!disposed && waiting.length > 0) {
      const next = waiting.shift()!;
      try {
        await sayOne(next.text, next.lang);
      } catch (error) {
        deps.onError?.(error);
      }
    }
    running = false;
  }

  return {
    announce(text, lang) {
      if (disposed || !text.trim()) return;
      waiting.push({ text, lang });
      while (waiting.length > maxPending) waiting.shift();
      if (!running) void run();
    },
    dispose() {
      disposed = true;
      waiting.length = 0;
      cache.clear();
    },
    pending: () => waiting.length,
  };
}

/** The Web Speech API voice language for an interface language (Mandarin for chs and tib). */
export function speechLocale(lang: SpeechLanguage): string {
  return lang === 'en' ? 'en-US' : 'zh-CN';
}

/** The longest an announcement may take before the next one goes (a player that never says "ended"). */
export const MAX_ANNOUNCEMENT_MS = 30_000;

/**
 * Plays rendered audio; resolves when it ends (or fails, or after MAX_ANNOUNCEMENT_MS). Through the
 * Web Audio API where there is one: it decodes the bytes itself, so the page's Content Security
 * Policy (no blob: media source) does not stand in the way; else through one reused audio element.
 */
export function createAudioPlayer(): { play(audio: Blob): Promise<void>; dispose(): void } {
  const Context = typeof window === 'undefined' ? undefined : window.AudioContext;
  return Context ? webAudioPlayer(Context) : elementPlayer();
}

function webAudioPlayer(Context: typeof AudioContext) {
  let context: AudioContext | null = null;
  return {
    async play(audio: Blob) {
      context ??= new Context();
      const ctx = context;
      if (ctx.state === 'suspended') await ctx.resume();
      const buffer = await ctx.decodeAudioData(await audio.arrayBuffer());
      await new Promise<void>((resolve) => {
        const source = ctx.createBufferSource();
        const guard = setTimeout(done, MAX_ANNOUNCEMENT_MS);
        function done() {
          clearTimeout(guard);
          source.onended = null;
          source.disconnect();
          resolve();
        }
        source.buffer = buffer;
        source.connect(ctx.destination);
        source.onended = done;
        source.start();
      });
    },
    dispose() {
      void context?.close();
      context = null;
    },
  };
}

function elementPlayer() {
  let element: HTMLAudioElement | null = null;
  return {
    play(audio: Blob) {
      element ??= new Audio();
      const el = element;
      const url = URL.createObjectURL(audio);
      return new Promise<void>((resolve, reject) => {
        const guard = setTimeout(() => finish(), MAX_ANNOUNCEMENT_MS);
        const finish = (error?: unknown) => {
          clearTimeout(guard);
          el.onended = null;
          el.onerror = null;
          URL.revokeObjectURL(url);
          if (error) reject(error instanceof Error ? error : new Error('audio playback failed'));
          else resolve();
        };
        el.onended = () => finish();
        el.onerror = () => finish(new Error('audio playback failed'));
        el.src = url;
        el.play().catch(finish);
      });
    },
    dispose() {
      if (element) {
        element.pause();
        element.removeAttribute('src');
        element = null;
      }
    },
  };
}

/** The browser's Web Speech API as the fallback speaker, when the browser has one. */
export function webSpeech(): AnnouncerDeps['speak'] {
  if (typeof window === 'undefined' || !('speechSynthesis' in window)) return undefined;
  return (text, lang) =>
    new Promise<void>((resolve) => {
      // A browser without voices may never say "end": the queue goes on after a while all the same.
      const guard = setTimeout(done, Math.min(MAX_ANNOUNCEMENT_MS, 3_000 + text.length * 400));
      function done() {
        clearTimeout(guard);
        resolve();
      }
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = speechLocale(lang);
      utterance.onend = done;
      utterance.onerror = done;
      window.speechSynthesis.speak(utterance);
    });
}
