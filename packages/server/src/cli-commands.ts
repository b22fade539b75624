import { parseArgs } from 'node:util';
import { checkUsername, domainConfigSchema, updateBucketPlanSchema, updateDomainConfigSchema } from '@yyp/contracts';
import { sql } from 'drizzle-orm';
import { buckets } from './db/schema.js';
import { OrganizationsService } from './modules/organizations/index.js';
import type { Database } from './platform/db.js';
import { hashPassword, newPasswordProblem } from './platform/passwords.js';
import { insertAccount } from './modules/accounts/index.js';
import { getDomainConfig, updateDomainConfig } from './modules/domain/index.js';
import { seedDemo } from './seed/demo.js';
import type { BlobStore } from './platform/blobs.js';
import { systemClock } from './platform/clock.js';
import { reindex } from './modules/archive/index.js';

/** The blob store a command works on, with a way to list its keys. */
export interface CliArchive {
  blobs: BlobStore;
  keys(prefix: string): AsyncIterable<string>;
}

export const usage = `usage: npm run cli -- <command>

  migrate                                   apply database migrations
  seed-demo                                 seed the demo domain and accounts
  create-user <username> --name N --password P [--platform-admin] [--must-change-password] [--can-create-group]
  domain get                                print the domain configuration
  domain set <field>=<value> [...]          change domain fields (booleans true/false, numbers)
  plan get <orgCode>                        show an organization's plan
  plan set <orgCode> kind=period|oneTime [quota=N|unlimited] [expires=YYYY-MM-DD|never] [reset]
                                            set its plan (quota counts studies; reset zeroes the count)
  plan end <orgCode>                        end it (a private organization then receives no uploads)
  reindex [--dry-run]                       index stored DICOM files that no instance row references
                                            (after a database crash or restore); prints a summary

Uses DATA_DIR and DATABASE_URL like the server.`;

function parseValue(field: string, raw: string): unknown {
  const shape = domainConfigSchema.shape as Record<string, { def?: { type?: string } }>;
  const type = shape[field]?.def?.type;
  if (type === 'boolean') {
    if (raw !== 'true' && raw !== 'false') throw new Error(`${field} takes true or false`);
    return raw === 'true';
  }
  if (type === 'number') return Number(raw);
  return raw;
}

/** Runs one CLI command; `print` receives its output. Throws with a readable message on bad input. */
export async function runCli(
  db: Database,
  argv: string[],
  print: (line: string) => void = console.log,
  archive?: CliArchive,
): Promise<void> {
  const [command, ...rest] = argv;
  const now = new Date();
  switch (command) {
    case 'migrate':
      print('migrations applied');
      return;
    case 'seed-demo': {
      const created = await seedDemo(db.db, now, { marketplace: true });
      print(created.length ? `created: ${created.join(', ')}` : 'demo accounts already exist');
      return;
    }
    case 'create-user': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          name: { type: 'string' },
          password: { type: 'string' },
          'platform-admin': { type: 'boolean', default: false },
          'must-change-password': { type: 'boolean', default: false },
          'can-create-group': { type: 'boolean', default: false },
        },
      });
      const username = (positionals[0] ?? '').trim();
      if (checkUsername(username)) throw new Error('username: letters, digits, dash and underscore only');
      if (!values.name || !values.password) throw new Error('--name and --password are required');
      const domain = await getDomainConfig(db.db);
      const problem = await newPasswordProblem(values.password, domain.requireStrongPwd);
      if (problem) throw new Error(`password: ${problem}`);
      const row = await insertAccount(
        db.db,
        {
          username,
          name: values.name,
          passwordHash: await hashPassword(values.password),
          passwordChangedAt: now,
          isPlatformAdmin: values['platform-admin'],
          mustChangePassword: values['must-change-password'],
          canCreateGroup: values['can-create-group'],
        },
        now,
      );
      if (!row) throw new Error(`username ${username} is taken`);
      print(`created ${row.username} (${row.id})`);
      return;
    }
    case 'domain': {
      const [sub, ...pairs] = rest;
      if (sub === 'get') {
        print(JSON.stringify(await getDomainConfig(db.db), null, 2));
        return;
      }
      if (sub === 'set' && pairs.length > 0) {
        const change: Record<string, unknown> = {};
        for (const pair of pairs) {
          const eq = pair.indexOf('=');
          if (eq <= 0) throw new Error(`expected field=value, got "${pair}"`);
          const field = pair.slice(0, eq);
          change[field] = parseValue(field, pair.slice(eq + 1));
        }
        const parsed = updateDomainConfigSchema.safeParse(change);
        if (!parsed.success) {
          throw new Error(parsed.error.issues.map((i) => `${i.path.join('.') || 'field'}: ${i.message}`).join('; '));
        }
        print(JSON.stringify(await updateDomainConfig(db.db, parsed.data, now), null, 2));
        return;
      }
      throw new Error(usage);
    }
    case 'plan': {
      const [sub, code, ...pairs] = rest;
      if (!code || !['get', 'set', 'end'].includes(sub ?? '')) throw new Error(usage);
      const [bucket] = await db.db
        .select()
        .from(buckets)
        .where(sql`lower(${buckets.code}) = lower(${code})`)
        .limit(1);
      if (!bucket) throw new Error(`no organization with code ${code}`);
      const orgs = new OrganizationsService(db.db, systemClock);
      const cli = { id: null, username: 'cli' };
      const ctx = { ip: '127.0.0.1', userAgent: 'yyp cli' };
      if (sub === 'get') {
        print(JSON.stringify(await orgs.plan(bucket.id), null, 2));
        return;
      }
      if (sub === 'end') {
        print(
          JSON.stringify(
            await orgs.setPlan(cli, bucket.id, { kind: null, quota: null, expiresAt: null }, ctx),
            null,
            2,
          ),
        );
        return;
      }
      const fields = new Map<string, string>();
      for (const pair of pairs) {
        const [k, v] = pair.split('=', 2);
        fields.set(k!, v ?? 'true');
      }
      const quota = fields.get('quota');
      const expires = fields.get('expires');
      const parsed = updateBucketPlanSchema.safeParse({
        kind: fields.get('kind') ?? bucket.planKind,
        quota: quota === undefined ? bucket.planQuota : quota === 'unlimited' ? null : Number(quota),
        expiresAt:
          expires === undefined
            ? (bucket.planExpiresAt?.toISOString() ?? null)
            : expires === 'never'
              ? null
              : /^\d{4}-\d{2}-\d{2}$/.test(expires)
                ? `${expires}T23:59:59+08:00`
                : expires,
        ...(fields.has('reset') ? { resetUsed: true } : {}),
      });
      if (!parsed.success) {
        throw new Error(parsed.error.issues.map((i) => `${i.path.join('.') || 'field'}: ${i.message}`).join('; '));
      }
      print(JSON.stringify(await orgs.setPlan(cli, bucket.id, parsed.data, ctx), null, 2));
      return;
    }
    case 'reindex': {
      const { values } = parseArgs({ args: rest, options: { 'dry-run': { type: 'boolean', default: false } } });
      if (!archive) throw new Error('reindex needs the blob store');
      const report = await reindex(
        { db: db.db, blobs: archive.blobs, clock: systemClock, syncCommit: true },
        archive.keys('dicom'),
        {
          dryRun: values['dry-run'],
          onProgress: (r) => print(`… ${r.scanned} files scanned, ${r.indexed} indexed`),
        },
      );
      print(
        `${report.scanned} files scanned: ${report.alreadyIndexed} already indexed, ${report.indexed} ${values['dry-run'] ? 'to index' : 'indexed'}, ` +
          `${report.duplicates.length} extra copies, ${report.unreadable.length} unreadable, ${report.orphaned} of deleted organizations`,
      );
      for (const key of report.unreadable) print(`unreadable: ${key}`);
      for (const key of report.duplicates) print(`extra copy (not indexed): ${key}`);
      return;
    }
    default:
      throw new Error(usage);
  }
}
