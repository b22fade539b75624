import { joinOrganization, makeGroupMember, makeMember, makeOrganization } from '../../test/factories.js';
import { DEMO_PW, startTestApp, type TestApp } from '../../test/harness.js';
import { listenOnLoopback } from '../../test/tus-client.js';

/**
 * What the upload int tests start from: an app listening on loopback, with a radiology and its
 * technician 'tech', and the accounts they add, all signed in by the cases through t.login's
 * default password.
 */

/** The technician's actions: uploads into the organization, and binds and edits what arrived. */
export const TECHNICIAN = ['exam_get', 'exam_update', 'exam_upload', 'exam_bind', 'attachment_upload'] as const;

/** An account made with t.login's default password and no session yet. */
export const SIGNED_OUT = { password: DEMO_PW, signIn: false };

export interface UploadApp {
  t: TestApp;
  /** the app's address on loopback, for the tus client */
  base: string;
  /** the radiology */
  rad: { bucketId: string; groupId: string };
}

/** A fresh app (no demo seed) on loopback with a radiology (named `name`, if given) and its technician 'tech'. */
export async function startUploadApp(name?: string): Promise<UploadApp> {
  const t = await startTestApp({ seed: false });
  const base = await listenOnLoopback(t);
  const rad = await makeOrganization(t, name === undefined ? {} : { name });
  await makeMember(t, rad.bucketId, { username: 'tech', actions: TECHNICIAN, ...SIGNED_OUT });
  return { t, base, rad };
}

/** `username`, an admin of the organization's group (level 1) and of the organization. */
export async function makeOrganizationAdmin(
  t: TestApp,
  organization: { bucketId: string; groupId: string },
  username: string,
): Promise<void> {
  const admin = await makeGroupMember(t, organization.groupId, 1, { username, ...SIGNED_OUT });
  await joinOrganization(t, organization.bucketId, admin.accountId, { level: 'admin', groupLevel: 1 });
}
