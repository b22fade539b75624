import { count } from 'drizzle-orm';
import {
  DEMO_PASSWORD,
  demoAccounts,
  demoDictionaries,
  demoGroups,
  demoProcedures,
  demoRoles,
  DEMO_URGENT_COLOR_RULE,
} from '@yyp/contracts';
import { accounts } from '../db/schema.js';
import type { Db } from '../platform/db.js';
import { hashPassword } from '../platform/passwords.js';
import { findAccountByUsername, insertAccount } from '../modules/accounts/accounts.store.js';
import { getDomainConfig, updateDomainConfig } from '../modules/domain/domain.store.js';
import { addGroupMembers, findGroup, insertGroup } from '../modules/groups/groups.store.js';
import { DEFAULT_GROUP_SETTINGS } from '../modules/groups/groups.service.js';
import { addBucketMembers, insertBucket, insertDictionaryItem } from '../modules/organizations/organizations.store.js';
import { insertRole, setRoleMembers } from '../modules/roles/roles.store.js';
import { insertAssignRule, insertColorRule } from '../modules/rules/rules.store.js';
import { insertDevice, insertProcedure } from '../modules/registry/procedures.store.js';
import { insertQueueType } from '../modules/calling/calling-types.store.js';
import { seedDemoBilling } from './demo-billing.js';
import { seedDemoConsultations } from './demo-consultations.js';
import { seedDemoReportLibrary } from './report-library.js';

export const DEMO_MODALITY_AE = 'DEMO_MODALITY';

/** True when no account exists yet: the demo tenant is seeded only then. */
export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(accounts);
  return (row?.n ?? 0) === 0;
}

/**
 * Seeds the demo domain and accounts (README lists them). Idempotent: existing names are kept.
 * `marketplace` adds the demo marketplace (seed/demo-billing.ts): a running demo has it; the test
 * harness, whose tests build their own orders and products, leaves it out.
 */
export async function seedDemo(db: Db, now: Date, options: { marketplace?: boolean } = {}): Promise<string[]> {
  const created: string[] = [];
  const domain = await getDomainConfig(db);
  if (domain.displayName === 'yyp' && !domain.company) {
    await updateDomainConfig(db, { displayName: 'yyp 影像云', company: 'yyp 演示医院', allowRegistration: true }, now);
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const demo of demoAccounts) {
    if (await findAccountByUsername(db, demo.username)) continue;
    await insertAccount(
      db,
      {
        username: demo.username,
        name: demo.name,
        passwordHash,
        passwordChangedAt: now,
        isPlatformAdmin: demo.platformAdmin,
        canCreateGroup: demo.username === 'groupadmin' || demo.platformAdmin,
      },
      now,
    );
    created.push(demo.username);
  }
  await seedDemoTenancy(db, now);
  await seedDemoReportLibrary(db, now);
  await seedDemoConsultations(db, now);
  if (options.marketplace) await seedDemoBilling(db, now);
  return created;
}

/** The demo groups, organizations, roles, dictionaries and rules; skipped when they exist. */
async function seedDemoTenancy(db: Db, now: Date): Promise<void> {
  const ids = new Map<string, string>();
  for (const demo of demoAccounts) {
    const row = await findAccountByUsername(db, demo.username);
    if (row) ids.set(demo.username, row.id);
  }
  const id = (username: string) => ids.get(username)!;
  for (const g of demoGroups) {
    if (await findGroup(db, g.id)) continue;
    await db.transaction(async (tx) => {
      await insertGroup(
        tx,
        {
          id: g.id,
          displayName: g.displayName,
          settings: { ...DEFAULT_GROUP_SETTINGS, ...g.settings },
          createdBy: id(g.members[0]!.username),
        },
        now,
      );
      for (const m of g.members) await addGroupMembers(tx, g.id, [id(m.username)], m.level, now);
      const bucketIds = new Map<string, string>();
      for (const o of g.organizations) {
        const bucket = await insertBucket(
          tx,
          {
            groupId: g.id,
            name: o.name,
            code: o.code,
            isPrivate: o.isPrivate ?? false,
            // A private organization receives uploads only under a plan: the demo's has a year.
            ...(o.isPrivate
              ? { planKind: 'period', planQuota: 1000, planExpiresAt: new Date(now.getTime() + 365 * 86_400_000) }
              : {}),
          },
          now,
        );
        bucketIds.set(o.key, bucket.id);
        const roleIds = new Map<string, string>();
        for (const m of o.members) {
          await addBucketMembers(tx, bucket.id, [id(m.username)], m.level, now);
          for (const key of m.roles ?? []) {
            if (!roleIds.has(key)) {
              const role = await insertRole(tx, bucket.id, demoRoles[key].name, [...demoRoles[key].actions], now);
              roleIds.set(key, role.id);
            }
          }
        }
        for (const key of roleIds.keys()) {
          const holders = o.members.filter((m) => m.roles?.includes(key as never)).map((m) => id(m.username));
          await setRoleMembers(tx, roleIds.get(key)!, holders);
        }
        for (const [kind, names] of Object.entries(demoDictionaries)) {
          let sort = 0;
          for (const name of names) {
            const data = kind === 'doctors' ? { physicianType: 1, departmentId: '0' } : {};
            await insertDictionaryItem(tx, { bucketId: bucket.id, kind, name, data, sort: sort++ }, now);
          }
        }
      }
      const first = bucketIds.get(g.organizations[0]!.key)!;
      if (g === demoGroups[0]) {
        // storescu -aet DEMO_MODALITY -aec YYP localhost 11112 … lands in the first demo organization,
        // and findscu -W -aet DEMO_MODALITY asks its worklist (answered in GB18030).
        const device = {
          name: '演示 CT',
          aeTitle: DEMO_MODALITY_AE,
          host: null,
          port: null,
          modality: 'CT',
          room: 'CT 室',
          deviceGroupId: null,
          charset: 'GB18030',
        };
        await insertDevice(tx, first, device, now);
        for (const [sort, p] of demoProcedures.entries()) {
          const values = {
            name: p.name,
            code: p.code,
            enName: p.enName,
            price: p.price,
            scanTech: '',
            isEnhanced: 'isEnhanced' in p ? p.isEnhanced : false,
            bodyPartCount: 1,
            modality: p.modality,
            aeTitle: 'onDemoModality' in p ? DEMO_MODALITY_AE : '',
            deviceGroupIds: [],
            steps: [],
            reportDuringExam: false,
            showLocalVideo: false,
            imagingOptional: false,
          };
          await insertProcedure(tx, first, values, sort, now);
        }
        // The CT's call queue: arrivals for a CT are called to "CT 1" on /calling and the waiting-room screen.
        await insertQueueType(tx, {
          id: crypto.randomUUID(),
          bucketId: first,
          displayName: 'CT',
          modality: 'CT',
          roomName: 'CT 1',
          urgentFirst: true,
          created: now,
          updated: now,
        });
      }
      const doctor = g.organizations[0]!.members.find((m) =>
        m.roles?.some((r) => r === 'reporting' || r === 'remoteReading'),
      );
      await insertAssignRule(
        tx,
        g.id,
        {
          name: 'CT 默认分配',
          bucketIds: [first],
          doctorId: doctor ? id(doctor.username) : null,
          modality: 'CT',
          memberIds: [],
          priority: 1,
        },
        now,
      );
      await insertColorRule(tx, g.id, { ...DEMO_URGENT_COLOR_RULE }, now);
    });
  }
}
