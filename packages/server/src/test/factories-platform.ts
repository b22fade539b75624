/**
 * Factories of the platform tests (issue 21 step 5), over test/factories.ts: an app without the
 * demo seed with an organization and its staff, each member holding the actions of a demo role
 * (contracts demoRoles), so a test's technician or doctor may do what the seeded one did; and the
 * organization and group rows the tenant-isolation matrix points its routes at (a dictionary item,
 * an assign rule, report material), written through the modules' stores as the seed writes them.
 */
import crypto from 'node:crypto';
import { demoRoles, type Action, type DemoRoleKey } from '@yyp/contracts';
import { insertDictionaryItem } from '../modules/organizations/organizations.store.js';
import { POSITION_STEP } from '../modules/report-library/kb-position.js';
import { insertItem } from '../modules/report-library/kb.store.js';
import { insertDescTemplate, insertTemplate } from '../modules/report-library/report-library.store.js';
import { insertAssignRule } from '../modules/rules/rules.store.js';
import {
  makeMember,
  makeOrganization,
  type BuiltMember,
  type BuiltOrganization,
  type MembershipOptions,
  type OrganizationOptions,
} from './factories.js';
import { startTestApp, type TestApp } from './harness.js';

/** The actions of a demo role: what the seeded account holding it may do. */
export function roleActions(role: DemoRoleKey): readonly Action[] {
  return demoRoles[role].actions;
}

/** A member of the organization holding a demo role (as the role's seeded holder was), signed in. */
export function makeStaff(
  t: TestApp,
  bucketId: string,
  role: DemoRoleKey,
  options: Omit<MembershipOptions, 'actions'> = {},
): Promise<BuiltMember> {
  return makeMember(t, bucketId, { roleName: demoRoles[role].name, ...options, actions: roleActions(role) });
}

export type StartOptions = Omit<NonNullable<Parameters<typeof startTestApp>[0]>, 'seed'>;

export interface Staffed<K extends string> {
  t: TestApp;
  org: BuiltOrganization;
  staff: Record<K, BuiltMember>;
}

/**
 * startTestApp without the demo seed, one organization (in a new group) and, for each name of
 * `roles`, a signed-in member holding that demo role's actions.
 */
export async function startWithStaff<K extends string>(
  options: StartOptions,
  roles: Record<K, DemoRoleKey>,
  organization: OrganizationOptions = {},
): Promise<Staffed<K>> {
  const t = await startTestApp({ ...options, seed: false });
  const org = await makeOrganization(t, organization);
  const staff = {} as Record<K, BuiltMember>;
  for (const [name, role] of Object.entries(roles) as [K, DemoRoleKey][]) {
    staff[name] = await makeStaff(t, org.bucketId, role);
  }
  return { t, org, staff };
}

const dbOf = (t: TestApp) => t.db.database.db;

/** An item of one of the organization's dictionaries (tags, departments, …); answers its id. */
export async function makeDictionaryItem(t: TestApp, bucketId: string, kind: string, name: string): Promise<string> {
  const row = await insertDictionaryItem(dbOf(t), { bucketId, kind, name, data: {}, sort: 0 }, t.clock.now());
  if (!row) throw new Error(`makeDictionaryItem: ${kind} ${name} exists`);
  return row.id;
}

/** An assign rule of the group (CT of the organizations to a doctor, as the seed's); answers its id. */
export async function makeAssignRule(
  t: TestApp,
  groupId: string,
  rule: { bucketIds: string[]; doctorId?: string | null; modality?: string; name?: string },
): Promise<string> {
  const row = await insertAssignRule(
    dbOf(t),
    groupId,
    {
      name: rule.name ?? 'CT 默认分配',
      bucketIds: rule.bucketIds,
      doctorId: rule.doctorId ?? null,
      modality: rule.modality ?? 'CT',
      memberIds: [],
      priority: 1,
    },
    t.clock.now(),
  );
  return row.id;
}

/**
 * The organization's report material, one row of each kind: a report template, an image
 * description template and a knowledge-base folder holding a phrase; answers their ids (the folder's).
 */
export async function makeReportMaterial(
  t: TestApp,
  bucketId: string,
): Promise<{ templateId: string; descTemplateId: string; kbItemId: string }> {
  const now = t.clock.now();
  const template = await insertTemplate(
    dbOf(t),
    {
      id: crypto.randomUUID(),
      scope: 'bucket',
      bucketId,
      ownerId: null,
      createdBy: null,
      category: '胸部',
      title: '胸部CT平扫 正常',
      modality: 'CT',
      bodyPart: '胸部',
      findings: '双肺纹理清晰，走行自然。',
      conclusion: '胸部CT平扫未见明显异常。',
    },
    now,
  );
  const desc = await insertDescTemplate(
    dbOf(t),
    {
      id: crypto.randomUUID(),
      bucketId,
      createdBy: null,
      title: '胸部CT平扫 扫描说明',
      modality: 'CT',
      bodyPart: '胸部',
      content: '扫描范围自胸廓入口至肺底，层厚5mm。',
    },
    now,
  );
  const kb = (values: { parentId: string | null; isFolder: boolean; title: string; content: string }) =>
    insertItem(
      dbOf(t),
      {
        id: crypto.randomUUID(),
        type: 'group',
        bucketId,
        ownerId: null,
        referenceId: null,
        ...values,
        position: POSITION_STEP,
        createdBy: null,
      },
      now,
    );
  const folder = await kb({ parentId: null, isFolder: true, title: '肺部', content: '' });
  await kb({ parentId: folder.id, isFolder: false, title: '肺纹理正常', content: '双肺纹理清晰，走行自然。' });
  return { templateId: template.id, descTemplateId: desc.id, kbItemId: folder.id };
}
