/**
 * Texts of identity and personal settings (issue 27): the mobile number bound with an SMS code.
 * Kept apart from en.ts so each file stays readable; merged into the one `Messages` tree there.
 */
export const identityEn = {
  mobile: {
    menu: 'Mobile number',
    title: 'Mobile number',
    description:
      'The bound mobile number receives the verification codes that reset a forgotten password. A new number is bound with the code sent to it.',
    current: 'Bound number',
    none: 'No mobile number bound',
    bind: 'Bind',
    change: 'Change',
    newNumber: 'New mobile number',
    numberHint: 'An 11-digit mainland number, or + and the country code for other countries.',
    invalid: 'Enter an 11-digit mainland mobile number, or + followed by the country code and number.',
    sendCode: 'Send code',
    resendIn: 'Resend in {{seconds}} s',
    codeSent: 'A verification code was sent to {{mobile}}. It is valid for 5 minutes.',
    codeHint: 'The 6-digit code from the text message',
    codeInvalid: 'Enter the 6 digits of the code.',
    triesLeft: 'The code is incorrect: {{count}} tries left.',
    submit: 'Bind this number',
    bound: 'Mobile number bound.',
    remove: 'Remove number',
    removeConfirm: 'Remove the bound mobile number? A forgotten password can then only be reset by an administrator.',
    removed: 'Mobile number removed.',
    noSms: 'This site cannot send text messages, so the number is saved without a code.',
    save: 'Save number',
    saved: 'Mobile number saved.',
    manage: 'Manage in Mobile number settings',
  },
};
