import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import { AppError } from '../../platform/errors.js';

const run = promisify(execFile);

/** One font the PDF renderer embeds: a file and, for a collection (.ttc), the face's PostScript name. */
export interface PdfFont {
  file: string;
  face?: string;
  data: Buffer;
}

/** Chinese and Latin text (Noto Sans CJK), its bold for headings, and Tibetan (Tibetan Machine Uni). */
export interface PdfFonts {
  text: PdfFont;
  bold: PdfFont;
  tibetan: PdfFont;
}

interface Want {
  /** the Debian package that installs it */
  debian: string;
  /** known paths first (Debian's), then what fontconfig answers for these patterns */
  paths: { file: string; face?: string }[];
  patterns: string[];
}

const NOTO = '/usr/share/fonts/opentype/noto';
const WANTS: Record<keyof PdfFonts, Want> = {
  text: {
    debian: 'fonts-noto-cjk',
    paths: [{ file: `${NOTO}/NotoSansCJK-Regular.ttc`, face: 'NotoSansCJKsc-Regular' }],
    patterns: ['Noto Sans CJK SC:style=Regular', 'Source Han Sans SC:style=Regular'],
  },
  bold: {
    debian: 'fonts-noto-cjk',
    paths: [{ file: `${NOTO}/NotoSansCJK-Bold.ttc`, face: 'NotoSansCJKsc-Bold' }],
    patterns: ['Noto Sans CJK SC:style=Bold', 'Noto Sans CJK SC:style=Regular'],
  },
  tibetan: {
    debian: 'fonts-tibetan-machine',
    paths: [{ file: '/usr/share/fonts/truetype/tibetan-machine/TibetanMachineUni.ttf' }],
    patterns: ['Tibetan Machine Uni', 'Jomolhari', 'Noto Serif Tibetan', 'Noto Sans Tibetan'],
  },
};

/** What fontconfig offers for the pattern, if it is the family asked for (fc-match always answers something). */
async function fcMatch(pattern: string): Promise<{ file: string; face?: string } | null> {
  try {
    const { stdout } = await run('fc-match', ['-f', '%{file}\n%{postscriptname}\n%{family}', pattern], {
      timeout: 5000,
    });
    const [file, face, family] = stdout.split('\n');
    const wanted = pattern.split(':')[0]!.toLowerCase();
    if (!file || !family?.toLowerCase().split(',').includes(wanted)) return null;
    return { file, ...(face ? { face } : {}) };
  } catch {
    return null;
  }
}

async function find(want: Want): Promise<PdfFont | null> {
  const candidates: { file: string; face?: string }[] = [...want.paths];
  for (const pattern of want.patterns) {
    const hit = await fcMatch(pattern);
    if (hit) candidates.push(hit);
  }
  for (const c of candidates) {
    const data = await fs.readFile(c.file).catch(() => null);
    if (data) return { file: c.file, ...(c.face ? { face: c.face } : {}), data };
  }
  return null;
}

/**
 * Finds the fonts that draw Chinese, English and Tibetan on this machine (Debian's
 * fonts-noto-cjk and fonts-tibetan-machine, or what fontconfig offers for the same faces). No npm
 * package ships fonts covering both CJK and Tibetan, so the server relies on the system's; a
 * missing one is a 503 that names the package to install.
 */
export async function locateFonts(wants: Partial<Record<keyof PdfFonts, Want>> = {}): Promise<PdfFonts> {
  const all = { ...WANTS, ...wants };
  const [text, bold, tibetan] = await Promise.all([find(all.text), find(all.bold), find(all.tibetan)]);
  const missing = [...new Set([!text && all.text.debian, !tibetan && all.tibetan.debian].filter(Boolean))];
  if (!text || !tibetan) {
    throw new AppError(
      'ServiceNotConfigured',
      `PDF reports need the fonts of the Debian package(s) ${missing.join(', ')} (apt-get install ${missing.join(' ')})`,
      { missing },
    );
  }
  return { text, bold: bold ?? text, tibetan };
}

export type { Want as FontWant };
