import { describe, expect, it } from 'vitest';
import { decideExpiryAction, isPublicPath } from './expiry';

const base = { pathname: '/studies', dialogOpen: false, username: 'doctor', loginType: 'normal' as const };

describe('decideExpiryAction (spec 001 §8)', () => {
  it('asks for the password of a password login', () => {
    expect(decideExpiryAction(base)).toBe('askPassword');
  });

  it.each([
    '/login',
    '/default-login',
    '/register',
    '/forget-password',
    '/loginCallback',
    '/change-password',
    '/404',
    '/reports/s',
  ])('does nothing on the public page %s', (pathname) => {
    expect(decideExpiryAction({ ...base, pathname })).toBe('none');
  });

  it('does nothing on the public page of an upload link, but asks on the signed-in upload wizard', () => {
    expect(decideExpiryAction({ ...base, pathname: '/upload', search: '?token=abc' })).toBe('none');
    expect(decideExpiryAction({ ...base, pathname: '/upload', search: '' })).toBe('askPassword');
  });

  it('does nothing while the dialog is shown', () => {
    expect(decideExpiryAction({ ...base, dialogOpen: true })).toBe('none');
  });

  it('sends a visitor with no stored username to login', () => {
    expect(decideExpiryAction({ ...base, username: null, loginType: null })).toBe('redirectToLogin');
  });

  it('sends other login types to login', () => {
    expect(decideExpiryAction({ ...base, loginType: 'sso' })).toBe('goToLogin');
  });
});

describe('isPublicPath', () => {
  it('knows the public routes and nothing else', () => {
    expect(isPublicPath('/login/')).toBe(true);
    expect(isPublicPath('/learning/42')).toBe(true);
    expect(isPublicPath('/studies')).toBe(false);
    expect(isPublicPath('/settings/profile')).toBe(false);
    expect(isPublicPath('/')).toBe(false);
    expect(isPublicPath('/upload', '?token=abc')).toBe(true);
    expect(isPublicPath('/upload')).toBe(false);
  });
});
