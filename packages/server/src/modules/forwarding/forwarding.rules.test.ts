import { describe, expect, it } from 'vitest';
import { ruleMatches } from './forwarding.service.js';

/** Every combination of filters (any, matching in another case, not matching) against one study. */
describe('which new studies a forwarding rule takes', () => {
  const study = { modalities: ['CT', 'SR'], bodyParts: ['CHEST'], sourceAe: 'CT_ROOM_1' };
  const modality = [
    ['', true],
    ['ct', true],
    ['SR', true],
    ['MR', false],
  ] as const;
  const bodyPart = [
    ['', true],
    ['chest', true],
    ['HEAD', false],
  ] as const;
  const sourceAe = [
    ['', true],
    ['CT_ROOM_1', true],
    ['ct_room_1', false], // AE titles are compared as sent
    ['MR_ROOM_1', false],
  ] as const;
  for (const [m, mOk] of modality) {
    for (const [b, bOk] of bodyPart) {
      for (const [a, aOk] of sourceAe) {
        it(`modality "${m}", body part "${b}", source AE "${a}"`, () => {
          expect(ruleMatches({ modality: m, bodyPart: b, sourceAe: a }, study)).toBe(mOk && bOk && aOk);
        });
      }
    }
  }

  it('a study without body parts or from no AE matches only rules that ask for none', () => {
    const bare = { modalities: ['DX'], bodyParts: [], sourceAe: '' };
    expect(ruleMatches({ modality: 'DX', bodyPart: '', sourceAe: '' }, bare)).toBe(true);
    expect(ruleMatches({ modality: 'DX', bodyPart: 'CHEST', sourceAe: '' }, bare)).toBe(false);
    expect(ruleMatches({ modality: 'DX', bodyPart: '', sourceAe: 'CT_ROOM_1' }, bare)).toBe(false);
  });
});
