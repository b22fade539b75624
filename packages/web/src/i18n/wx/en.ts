/**
 * Texts of WeChat website login (issue 27): the login page's button, /loginCallback?source=wx and its
 * bind card, the WeChat card of /settings/mobile. Merged into the one `Messages` tree in en.ts.
 */
export const wxEn = {
  wx: {
    signIn: 'WeChat',
    signInLabel: 'Sign in with WeChat',
    callbackTitle: 'Signing in with WeChat',
    bindTitle: 'Link your WeChat to an account',
    bindIntro:
      'WeChat “{{nickname}}” is not linked to an account yet. Sign in once with your username and password to link it; next time WeChat signs you in directly.',
    bindSubmit: 'Link and sign in',
    registerToggle: 'Create a new account instead',
    bindToggle: 'Link an existing account instead',
    registerIntro: 'A new account that signs in with this WeChat only (it has no password).',
    registerSubmit: 'Create account and sign in',
    settingsTitle: 'WeChat',
    linkedAs: 'Linked to WeChat “{{nickname}}” since {{date}}.',
    notLinked: 'No WeChat is linked. Sign out, choose WeChat on the login page and link this account there.',
    unlink: 'Unlink WeChat',
    unlinkConfirm: 'Unlink this WeChat? It will no longer sign you in.',
    unlinked: 'WeChat was unlinked.',
    cannotUnlink: 'This account signs in with WeChat only; unlinking it would lock you out.',
    noPassword: 'Your account signs in with WeChat and has no password to change.',
  },
};
