import { describe, expect, it } from 'vitest';
import { speechVoice } from '@yyp/contracts';
import { espeakArgs, fixWavSizes, languageFromAcceptLanguage, wavDurationSeconds } from './speech.audio.js';

/** A PCM WAV header as espeak-ng writes it to a pipe: placeholder sizes, then `samples` 16-bit samples. */
function pipedWav(samples: number, rate = 22050): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(0x7ffff024, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(0x7ffff000, 40);
  return Buffer.concat([header, Buffer.alloc(samples * 2, 1)]);
}

describe('speechVoice', () => {
  it('speaks Mandarin for the chs and tib interfaces and English for en', () => {
    expect(speechVoice('chs')).toBe('cmn');
    expect(speechVoice('tib')).toBe('cmn');
    expect(speechVoice('en')).toBe('en');
  });
});

describe('espeakArgs', () => {
  it('names the voice and speed and writes the WAV to stdout, the text never on the command line', () => {
    expect(espeakArgs('cmn', 150)).toEqual(['-v', 'cmn', '-s', '150', '-b', '1', '--stdout']);
  });
});

describe('languageFromAcceptLanguage', () => {
  it('takes the first of our languages by preference', () => {
    expect(languageFromAcceptLanguage('zh-CN,zh;q=0.9,en;q=0.8')).toBe('chs');
    expect(languageFromAcceptLanguage('en-US,en;q=0.9')).toBe('en');
    expect(languageFromAcceptLanguage('bo-CN')).toBe('tib');
    expect(languageFromAcceptLanguage('fr-FR, en;q=0.5, zh;q=0.7')).toBe('chs');
    expect(languageFromAcceptLanguage('tib')).toBe('tib');
  });
  it('answers undefined for none, an empty header and refused tags (q=0)', () => {
    expect(languageFromAcceptLanguage(undefined)).toBeUndefined();
    expect(languageFromAcceptLanguage('')).toBeUndefined();
    expect(languageFromAcceptLanguage('fr, de')).toBeUndefined();
    expect(languageFromAcceptLanguage('en;q=0')).toBeUndefined();
  });
});

describe('fixWavSizes and wavDurationSeconds', () => {
  it('writes the true RIFF and data sizes over a pipe’s placeholders', () => {
    const fixed = fixWavSizes(pipedWav(22050));
    expect(fixed.readUInt32LE(4)).toBe(fixed.length - 8);
    expect(fixed.readUInt32LE(40)).toBe(22050 * 2);
    expect(wavDurationSeconds(fixed)).toBe(1);
  });
  it('reads half a second at 22 050 Hz, and no duration from what is not a WAV', () => {
    expect(wavDurationSeconds(fixWavSizes(pipedWav(11025)))).toBe(0.5);
    expect(wavDurationSeconds(Buffer.from('OggS not a wav file at all'))).toBeNull();
    expect(fixWavSizes(Buffer.from('short'))).toEqual(Buffer.from('short'));
  });
});
