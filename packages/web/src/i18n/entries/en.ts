/**
 * Texts of a hospital system's signed entries (/ss-login, /go) and the platform's global settings
 * (issue 27). Kept apart from en.ts; merged into the one `Messages` tree there.
 */
export const entriesEn = {
  entry: {
    title: 'Signing in from the hospital system',
    working: 'Signing you in…',
    leaving: 'Signing out the previous user…',
    invalidTitle: 'This sign-in link is not valid',
    invalidHint: 'The link was changed or was not issued for this site. Open it again from the hospital system.',
    expiredTitle: 'This sign-in link has expired',
    expiredHint: 'A link works for five minutes after it is made. Open it again from the hospital system.',
    usedTitle: 'This sign-in link was already used',
    usedHint: 'Each link signs in once. Open it again from the hospital system to get a new one.',
    accountTitle: 'This account cannot sign in here',
    accountHint: 'The account is not a member of the hospital group, or it is disabled. Ask your administrator.',
    failedTitle: 'Signing in failed',
    failedHint: 'The server could not be reached. Try again in a moment.',
    retry: 'Try again',
    toLogin: 'Go to the login page',
  },
  globalSettings: {
    tab: 'Global settings',
    description: 'Settings shown to every user of the platform. Leave a field empty to clear it.',
    helpUrl: 'Help address',
    helpUrlHint: 'An http or https address the help link opens.',
    supportPhone: 'Support telephone',
    supportEmail: 'Support e-mail',
    announcement: 'Announcement',
    announcementHint: 'A notice shown to every user (plain text, at most 500 characters).',
    save: 'Save',
    saved: 'Global settings saved.',
    invalidUrl: 'Enter an address starting with http:// or https://.',
    invalidPhone: 'Use digits, spaces, dashes and brackets, with an optional leading +.',
    invalidEmail: 'Enter a valid e-mail address.',
    loadFailed: 'The global settings could not be loaded.',
  },
};
