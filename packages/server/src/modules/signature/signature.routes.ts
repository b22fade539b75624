import { signatureCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { SignatureService } from './signature.service.js';

/** The signature calls (contracts signatureCalls); the code calls are public, the code is the credential. */
export function signatureRoutes(app: FastifyInstance, signature: SignatureService): void {
  defineCallRoute(app, signatureCalls.mine, {
    summary: "The caller's signature (a short-lived URL) or null",
    auth: 'account',
    handler: ({ account }) => signature.mine(account),
  });
  defineCallRoute(app, signatureCalls.setMine, {
    summary: "Sets the caller's signature to their own upload from policies/images (PNG/JPEG, 1 MB)",
    auth: 'account',
    handler: ({ account, body, request }) => signature.setMine(account, body.url, auditContext(request)),
  });
  defineCallRoute(app, signatureCalls.removeMine, {
    summary: "Removes the caller's signature",
    auth: 'account',
    handler: ({ account, request }) => signature.removeMine(account, auditContext(request)),
  });
  defineCallRoute(app, signatureCalls.issueCode, {
    summary: 'A 10-minute code (QR) that lets a phone set the caller’s signature once',
    auth: 'account',
    handler: ({ account, request }) => signature.issueCode(account, auditContext(request)),
  });
  definePublicCallRoute(app, signatureCalls.policy, {
    summary: 'An upload URL for one signature PNG (at most 1 MB), authorized by a signature code',
    handler: ({ query }) => signature.policy(query),
  });
  definePublicCallRoute(app, signatureCalls.byCode, {
    summary: "Sets the code's account signature to the file uploaded with the code; the code is spent",
    handler: ({ body, request }) => signature.setByCode(body.code, body.url, auditContext(request)),
  });
}
