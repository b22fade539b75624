/** English: a viewer (OHIF) signs in through yyp (issue 28 item 11). */
export const oidcEn = {
  oidcSignIn: {
    title: 'Sign in to an image viewer',
    prompt: '{{client}} ({{origin}}) asks to open images with your yyp account {{user}}.',
    scope: 'It may read the studies you may see, for as long as you stay signed in to yyp.',
    allow: 'Allow',
    deny: 'Cancel',
    loading: 'Reading the request…',
    invalid: 'This sign-in request has expired or is not valid. Start again from the viewer.',
    redirecting: 'Returning to the viewer…',
  },
};
