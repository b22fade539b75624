import { count } from 'drizzle-orm';
import { DEMO_PASSWORD, demoAccounts } from '@yyp/contracts';
import { accounts } from '../db/schema.js';
import type { Db } from '../platform/db.js';
import { hashPassword } from '../platform/passwords.js';
import { findAccountByUsername, insertAccount } from '../modules/accounts/accounts.store.js';
import { getDomainConfig, updateDomainConfig } from '../modules/domain/domain.store.js';

/** True when no account exists yet: the demo tenant is seeded only then. */
export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(accounts);
  return (row?.n ?? 0) === 0;
}

/** Seeds the demo domain and accounts (README lists them). Idempotent: existing names are kept. */
export async function seedDemo(db: Db, now: Date): Promise<string[]> {
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
  return created;
}
