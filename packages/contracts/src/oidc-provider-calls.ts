import { z } from 'zod';
import { defineCall } from './call.js';

/**
 * yyp as an OpenID Connect provider for image viewers such as OHIF (issue 28 item 11; docs
 * dicom-conformance.md "Signing in from OHIF and other viewers"). The provider's own endpoints live
 * under /yyp/oidc (standard OAuth paths, not API calls); these two calls are the sign-in page's
 * (web /oidc/sign-in): what the viewer asks for, and the signed-in user's answer.
 */
export const oidcInteractionQuerySchema = z.object({
  /** the signed authorization request /yyp/oidc/auth handed to the page (not a credential) */
  interaction: z.string().min(1).max(4096),
});

export const oidcInteractionSchema = z.object({
  clientId: z.string(),
  /** the viewer's name from the configuration, else its client id */
  clientName: z.string(),
  /** where the browser goes back to (scheme://host:port of the redirect URI) */
  redirectOrigin: z.string(),
  /**
   * the user allowed this viewer from this yyp session before (a grant of it still live): the page
   * goes on without asking again, as a provider with a remembered consent does (OHIF signs in anew
   * on every page load)
   */
  remembered: z.boolean(),
});

export const oidcDecisionSchema = oidcInteractionQuerySchema.extend({
  decision: z.enum(['allow', 'deny']),
});

export const oidcRedirectSchema = z.object({
  /** the viewer's redirect URI with the code (or error), state and iss */
  redirectTo: z.string(),
});

export type OidcInteraction = z.infer<typeof oidcInteractionSchema>;
export type OidcDecision = z.infer<typeof oidcDecisionSchema>;

export const oidcProviderCalls = {
  /** the signed-in user's view of a viewer's authorization request */
  interaction: defineCall({
    method: 'GET',
    path: 'oidc/interaction',
    query: oidcInteractionQuerySchema,
    answer: oidcInteractionSchema,
  }),
  /** the user allows (a code bound to the caller's session) or denies; where the browser goes next */
  decide: defineCall({
    method: 'POST',
    path: 'oidc/interaction',
    body: oidcDecisionSchema,
    answer: oidcRedirectSchema,
  }),
} as const;
