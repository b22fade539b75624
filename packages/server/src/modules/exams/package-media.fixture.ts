/**
 * Test support for the DICOM media packages: unzips with Info-ZIP's unzip and checks the media
 * with DCMTK only (readers nobody here wrote): dcmftest on every file, the DICOMDIR's records as
 * dcmdump reads them (linked by their offsets), every Referenced File ID resolved to a file whose
 * SOP Instance UID, SOP Class UID and transfer syntax (as dcmdump reads the file) are the
 * record's, dcmmkdir +U finding every file already recorded, and a DICOMDIR dcmmkdir writes for
 * the same files holding the same records.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';

const run = promisify(execFile);

export const mediaTempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-media-'));

/** Unzips `zip` into a fresh folder under `dir` with Info-ZIP's unzip; answers the folder. */
export async function unzipTo(dir: string, zip: Buffer): Promise<string> {
  const out = fs.mkdtempSync(path.join(dir, 'x'));
  fs.writeFileSync(path.join(out, 'media.zip'), zip);
  await run('unzip', ['-q', 'media.zip', '-d', 'media'], { cwd: out });
  return path.join(out, 'media');
}

/** Files under `dir`, as paths relative to it with forward slashes. */
export function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

export interface DumpedRecord {
  offset: number;
  type: string;
  /** the record's own elements (not those inside its sequences): tag "gggg,eeee" → value as dcmdump prints it */
  elements: Map<string, string>;
  children: DumpedRecord[];
}

/** dcmdump's text of a file (-Un: UIDs as numbers, +L: long values whole), read as Latin-1. */
async function dcmdump(file: string, ...args: string[]): Promise<string> {
  return (await run('dcmdump', ['-Un', '+L', ...args, file], { encoding: 'latin1', maxBuffer: 64 << 20 })).stdout;
}

const ELEMENT = /^(\s*)\(([0-9a-f]{4},[0-9a-f]{4})\) (\w\w) (.*?)\s+#\s+\d+, \d+ \w+$/;
const value = (printed: string) => {
  const text = /^\[(.*)\]$/.exec(printed);
  return text ? text[1]!.replace(/[ \0]+$/, '') : printed.startsWith('(no value') ? '' : printed;
};

/** The DICOMDIR's records as dcmdump reads them, linked into a tree by their offsets (each reached once). */
export async function dicomdirTree(file: string): Promise<DumpedRecord[]> {
  const lines = (await dcmdump(file)).split('\n');
  const root = new Map<string, string>();
  const records = new Map<number, DumpedRecord>();
  let current: DumpedRecord | undefined;
  for (let i = 0; i < lines.length; i++) {
    const start = /^ {2}\(fffe,e000\) na "Directory Record" (.+?) #=/.exec(lines[i]!);
    if (start) {
      const offset = /#\s+offset=\$(\d+)/.exec(lines[i + 1] ?? '');
      expect(offset, lines[i + 1]).not.toBeNull();
      current = { offset: Number(offset![1]), type: start[1]!, elements: new Map(), children: [] };
      records.set(current.offset, current);
      continue;
    }
    const el = ELEMENT.exec(lines[i]!);
    if (!el) continue;
    const [, indent, tag, , printed] = el;
    if (indent === '') root.set(tag!, value(printed!));
    else if (indent === '    ' && current) current.elements.set(tag!, value(printed!));
  }
  const offset = (v: string | undefined) => Number(/^(\d+)$/.exec(v ?? '')?.[1] ?? NaN);
  const reached = new Set<number>();
  const chain = (first: number): DumpedRecord[] => {
    const out: DumpedRecord[] = [];
    for (let at = first; at !== 0;) {
      const r = records.get(at);
      expect(r, `offset ${at} names a directory record`).toBeDefined();
      expect(reached.has(at), `record at ${at} reached twice`).toBe(false);
      reached.add(at);
      r!.children = chain(offset(r!.elements.get('0004,1420')));
      out.push(r!);
      at = offset(r!.elements.get('0004,1400'));
    }
    return out;
  };
  const tree = chain(offset(root.get('0004,1200')));
  expect(reached.size).toBe(records.size);
  expect(offset(root.get('0004,1202'))).toBe(tree.at(-1)?.offset ?? 0);
  return tree;
}

export const flat = (records: DumpedRecord[]): DumpedRecord[] => records.flatMap((r) => [r, ...flat(r.children)]);

/**
 * Checks a media folder (DICOMDIR at its root) with DCMTK; answers its records. `instances` are
 * the SOP Instance UIDs the media must hold, each in exactly one file.
 */
export async function checkMedia(dir: string, instances: string[]): Promise<DumpedRecord[]> {
  const files = filesUnder(dir);
  const dicomFiles = files.filter((f) => f.startsWith('DICOM/'));
  for (const f of dicomFiles) {
    const parts = f.split('/');
    expect(parts.length, f).toBeLessThanOrEqual(8);
    for (const p of parts) expect(p, f).toMatch(/^[A-Z0-9_]{1,8}$/);
  }
  // dcmftest: every file, the DICOMDIR among them, is a Part 10 file.
  const ftest = await run('dcmftest', ['DICOMDIR', ...dicomFiles], { cwd: dir });
  expect(ftest.stdout.split('\n').filter((l) => l.startsWith('yes:'))).toHaveLength(dicomFiles.length + 1);
  const meta = await dcmdump(path.join(dir, 'DICOMDIR'), '-M');
  expect(meta).toMatch(/\(0002,0002\) UI \[1\.2\.840\.10008\.1\.3\.10\]/);
  expect(meta).toMatch(/\(0002,0010\) UI \[1\.2\.840\.10008\.1\.2\.1\]/);

  const tree = await dicomdirTree(path.join(dir, 'DICOMDIR'));
  const leaves = flat(tree).filter((r) => r.elements.has('0004,1500'));
  const referenced = new Set<string>();
  for (const r of leaves) {
    const fileId = r.elements.get('0004,1500')!.split('\\');
    const file = path.join(dir, ...fileId);
    expect(fs.existsSync(file), fileId.join('/')).toBe(true);
    referenced.add(fileId.join('/'));
    const dumped = await dcmdump(file, '+P', '0008,0018', '+P', '0008,0016', '+P', '0002,0010');
    const [sopInstance, sopClass, ts] = ['0008,0018', '0008,0016', '0002,0010'].map((t) =>
      value(new RegExp(`\\(${t}\\) UI (\\S+)`).exec(dumped)?.[1] ?? ''),
    );
    expect(r.elements.get('0004,1511'), fileId.join('/')).toBe(sopInstance);
    expect(r.elements.get('0004,1510'), fileId.join('/')).toBe(sopClass);
    expect(r.elements.get('0004,1512'), fileId.join('/')).toBe(ts);
  }
  // Every DICOM file is referenced once; every instance is there once.
  expect([...referenced].sort()).toEqual(dicomFiles);
  expect(leaves.map((r) => r.elements.get('0004,1511')).sort()).toEqual([...instances].sort());

  // dcmmkdir +U finds every file already recorded: the same records after as before.
  const copy = fs.mkdtempSync(path.join(path.dirname(dir), 'u'));
  fs.cpSync(dir, copy, { recursive: true });
  const update = await run('dcmmkdir', ['+U', '-nb', '+r', '+id', '.', 'DICOM'], { cwd: copy });
  expect(update.stderr).toBe('');
  expect(flat(await dicomdirTree(path.join(copy, 'DICOMDIR'))).length).toBe(flat(tree).length);

  // A DICOMDIR dcmmkdir writes for the same files: the same records (by type, file and UID keys),
  // each of ours holding every element dcmmkdir's does.
  const fresh = fs.mkdtempSync(path.join(path.dirname(dir), 'f'));
  fs.cpSync(path.join(dir, 'DICOM'), path.join(fresh, 'DICOM'), { recursive: true });
  await run('dcmmkdir', ['-nb', '+r', '+id', '.', 'DICOM'], { cwd: fresh });
  const identity = (r: DumpedRecord): string =>
    [
      r.type,
      ...['0004,1500', '0004,1511', '0010,0020', '0020,000d', '0020,000e'].map((t) => r.elements.get(t) ?? ''),
      ...r.children.map(identity).sort(),
    ].join('|');
  const theirs = await dicomdirTree(path.join(fresh, 'DICOMDIR'));
  expect(tree.map(identity).sort()).toEqual(theirs.map(identity).sort());
  const ours = new Map(flat(tree).map((r) => [identity(r), r]));
  for (const r of flat(theirs)) {
    const mine = ours.get(identity(r))!;
    for (const tag of r.elements.keys()) expect(mine.elements.has(tag), `${r.type} ${tag}`).toBe(true);
  }
  return tree;
}
