import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readGsps } from './gsps.js';
import { DicomError } from './parse.js';
import { instanceDataset } from './sr.js';
import { generateStudy } from './testdata/generate.js';
import { mutations } from './testdata/mutate.js';
import { generateGsps, type PresentationGraphic } from './testdata/objects.js';

const study = generateStudy({ modality: 'CT', instancesPerSeries: 2, rows: 64, columns: 64 });
const s = { studyInstanceUid: study.studyInstanceUid };
const dir = mkdtempSync(path.join(tmpdir(), 'yyp-gsps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GRAPHICS: PresentationGraphic[] = [
  { type: 'POLYLINE', points: [10, 10, 30, 10, 30, 30] },
  { type: 'CIRCLE', points: [32, 32, 40, 32] },
  { type: 'ELLIPSE', points: [20, 40, 44, 40, 32, 36, 32, 44] },
  { type: 'POINT', points: [5.5, 6.25] },
  { type: 'POLYLINE', points: [0.1, 0.1, 0.9, 0.9], units: 'DISPLAY' },
];

describe('readGsps', () => {
  it('reads the graphic annotations and text in PIXEL units, and the images they apply to', () => {
    const images = study.instances;
    const file = generateGsps(s, images, GRAPHICS, { value: 'Nodule 12 mm', anchor: [40, 32] }).bytes;
    // DCMTK reads it whole, as Implicit VR with defined lengths too.
    const input = path.join(dir, 'gsps.dcm');
    const implicit = path.join(dir, 'gsps-implicit.dcm');
    writeFileSync(input, file);
    expect(spawnSync('dcmconv', ['+ti', '+e', input, implicit]).status).toBe(0);
    for (const bytes of [file, readFileSync(implicit)]) {
      const state = readGsps(instanceDataset(bytes));
      expect(state.label).toBe('ANNOTATIONS');
      expect(state.description).toBe('Nodule marked');
      expect(state.images).toEqual(images.map((i) => ({ sopUid: i.sopInstanceUid, frames: [] })));
      expect(state.annotations).toHaveLength(1);
      const [a] = state.annotations;
      expect(a!.layer).toBe('LAYER1');
      expect(a!.images).toEqual([]);
      expect(a!.graphics).toEqual(GRAPHICS.slice(0, 4).map((g) => ({ type: g.type, points: g.points, filled: false })));
      expect(a!.texts).toEqual([{ text: 'Nodule 12 mm', box: null, anchor: [40, 32] }]);
      // The DISPLAY-unit polyline is left out and counted.
      expect(state.skipped).toBe(1);
    }
  });

  it('never throws anything but a DicomError on broken input', () => {
    const valid = generateGsps(s, study.instances, GRAPHICS).bytes;
    let read = 0;
    for (const m of mutations(valid, 7, 200)) {
      try {
        readGsps(instanceDataset(m.bytes));
      } catch (err) {
        expect(err, m.kind).toBeInstanceOf(DicomError);
      }
      read++;
    }
    expect(read).toBe(200);
  });
});
