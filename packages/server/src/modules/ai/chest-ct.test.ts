import { describe, expect, it } from 'vitest';
import { isChestCt } from './chest-ct.js';

describe('isChestCt', () => {
  it.each([
    [{ modality: 'CT', bodyPart: 'CHEST', studyDesc: '' }, true],
    [{ modality: 'CT\\SR', bodyPart: 'thorax', studyDesc: '' }, true],
    [{ modality: 'CT', bodyPart: 'LUNG', studyDesc: '' }, true],
    [{ modality: 'CT', bodyPart: '', studyDesc: '胸部 CT 平扫' }, true],
    [{ modality: 'CT', bodyPart: '', studyDesc: 'CT Chest w/o contrast' }, true],
    [{ modality: 'CT', bodyPart: '', studyDesc: '肺结节随访' }, true],
    [{ modality: 'CT', bodyPart: 'HEAD', studyDesc: '头颅 CT' }, false],
    [{ modality: 'CT', bodyPart: '', studyDesc: '' }, false],
    [{ modality: 'DX', bodyPart: 'CHEST', studyDesc: '胸部正位' }, false],
    [{ modality: 'MR', bodyPart: 'CHEST', studyDesc: '' }, false],
    [{ modality: 'PT\\CT', bodyPart: 'CHEST', studyDesc: '' }, true],
  ])('%j → %s', (exam, expected) => {
    expect(isChestCt(exam)).toBe(expected);
  });
});
