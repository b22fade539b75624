import {
  codeUploadPolicyQuerySchema,
  setSignatureRequestSchema,
  signatureByCodeRequestSchema,
  signatureSchema,
  uploadCodeSchema,
  uploadPolicySchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { definePublicRoute, defineRoute } from '../../platform/route.js';
import type { SignatureService } from './signature.service.js';

export function signatureRoutes(app: FastifyInstance, signature: SignatureService): void {
  defineRoute(app, {
    method: 'GET',
    url: 'signature/mine',
    summary: "The caller's signature (a short-lived URL) or null",
    auth: 'account',
    response: signatureSchema,
    handler: ({ account }) => signature.mine(account),
  });
  defineRoute(app, {
    method: 'PUT',
    url: 'signature/mine',
    summary: "Sets the caller's signature to their own upload from policies/images (PNG/JPEG, 1 MB)",
    auth: 'account',
    body: setSignatureRequestSchema,
    response: signatureSchema,
    handler: ({ account, body, request }) => signature.setMine(account, body.url, auditContext(request)),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'signature/mine',
    summary: "Removes the caller's signature",
    auth: 'account',
    response: signatureSchema,
    handler: ({ account, request }) => signature.removeMine(account, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'signature/code',
    summary: 'A 10-minute code (QR) that lets a phone set the caller’s signature once',
    auth: 'account',
    response: uploadCodeSchema,
    handler: ({ account, request }) => signature.issueCode(account, auditContext(request)),
  });
  definePublicRoute(app, {
    method: 'GET',
    url: 'signature/policies',
    summary: 'An upload URL for one signature PNG (at most 1 MB), authorized by a signature code',
    query: codeUploadPolicyQuerySchema,
    response: uploadPolicySchema,
    handler: ({ query }) => signature.policy(query),
  });
  definePublicRoute(app, {
    method: 'POST',
    url: 'signature',
    summary: "Sets the code's account signature to the file uploaded with the code; the code is spent",
    body: signatureByCodeRequestSchema,
    response: signatureSchema,
    handler: ({ body, request }) => signature.setByCode(body.code, body.url, auditContext(request)),
  });
}
