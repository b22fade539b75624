import { describe, expect, it } from 'vitest';
import { maskMobile } from './accounts.presenter.js';

describe('maskMobile', () => {
  it('keeps the first 3 and last 4 digits of a full number', () => {
    expect(maskMobile('13812345678')).toBe('138****5678');
    expect(maskMobile('+8613812345678')).toBe('+86*******5678');
  });
  it('shows only the last two digits of a short number', () => {
    expect(maskMobile('1234567')).toBe('*****67');
  });
  it('answers null without a mobile', () => {
    expect(maskMobile(null)).toBeNull();
    expect(maskMobile('')).toBeNull();
  });
});
