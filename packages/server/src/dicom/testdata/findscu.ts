/**
 * DCMTK as the modality asking its worklist, for tests: a query file written from dcmdump-style
 * text with dump2dcm (as DCMTK's wlistqry example does), findscu -W, and the answers read back
 * with dcmdump.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { encodeText, type Charset } from '../text-encode.js';

const run = promisify(execFile);

/** The value of `tag` (e.g. '0010,0010') in a dcmdump listing. */
export const dumpValue = (dump: string, tag: string): string | undefined =>
  new RegExp(`\\(${tag}\\) \\w\\w \\[([^\\]]*)\\]`).exec(dump)?.[1];

/** A worklist query file in `dir` from dump lines; dump2dcm copies the bracketed bytes, so the text is written in `charset`. */
export async function worklistQueryFile(
  dir: string,
  name: string,
  lines: string[],
  charset: Charset = '',
): Promise<string> {
  const text = path.join(dir, `${name}.txt`);
  const file = path.join(dir, `${name}.dcm`);
  fs.writeFileSync(text, encodeText(lines.join('\n'), charset));
  await run('dump2dcm', [text, file]);
  return file;
}

/**
 * findscu -W as `aet` to the SCP on 127.0.0.1:`port` (called AE YYP); the responses extracted into
 * `dir`, each as dcmdump lists it converted to UTF-8 (which also rewrites SpecificCharacterSet:
 * `charset` is the one the answer was written in).
 */
export async function findscuWorklist(
  dir: string,
  port: number,
  aet: string,
  query: string,
  extra: string[] = [],
): Promise<{ dump: string; charset: string }[]> {
  const out = fs.mkdtempSync(path.join(dir, 'rsp-'));
  await run('findscu', [
    '-W',
    '-aet',
    aet,
    '-aec',
    'YYP',
    ...extra,
    '-X',
    '-od',
    out,
    '127.0.0.1',
    String(port),
    query,
  ]);
  return Promise.all(
    fs
      .readdirSync(out)
      .sort()
      .map(async (f) => {
        const file = path.join(out, f);
        const dump = (await run('dcmdump', ['+U8', '-q', file], { encoding: 'utf8' })).stdout;
        const raw = (await run('dcmdump', ['-q', '+P', '0008,0005', file], { encoding: 'latin1' })).stdout;
        return { dump, charset: dumpValue(raw, '0008,0005') ?? '' };
      }),
  );
}
