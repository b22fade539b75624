import {
  MAX_SIGNATURE_BYTES,
  resolveUploadType,
  SIGNATURE_CODE_SECONDS,
  SIGNATURE_PATH,
  type CodeUploadPolicyQuery,
  type Signature,
  type UploadCode,
  type UploadPolicy,
} from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import type { OwnedUpload, PoliciesService } from '../policies/index.js';
import { codeError, codeOwner, codeProblem, hashCode, newCode } from '../upload-codes/index.js';
import * as codes from '../upload-codes/index.js';
import { accountNow, lockAccount, setSignature } from './signature.store.js';

/** Signature URLs stay the same for 5 minutes (the settings page polls) and work 5 more. */
const SIGNATURE_URL_WINDOW_SECONDS = 5 * 60;
const PHONE_TYPES = ['image/png'] as const;
const DESKTOP_TYPES = ['image/png', 'image/jpeg'] as const;

function checkSignatureFile(contentType: string, size: number, accept: readonly string[]): void {
  if (!accept.includes(contentType)) {
    throw new AppError('FileTypeNotAllowed', `A signature must be ${accept.join(' or ')}`, {
      contentType,
      accept,
    });
  }
  if (size > MAX_SIGNATURE_BYTES) {
    throw new AppError('FileTooLarge', `A signature is at most ${MAX_SIGNATURE_BYTES} bytes`, {
      size,
      maxBytes: MAX_SIGNATURE_BYTES,
    });
  }
}

/**
 * The account's signature picture (spec 000 §3 User.signature): drawn on a phone that holds a
 * 10-minute code from Settings → Signature (spec 001 §7 GET signature/policies, POST signature),
 * or uploaded on the desktop. Signature files are uploads of kind `images`, kept to PNG/JPEG of
 * at most 1 MB here.
 */
export class SignatureService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly policies: PoliciesService,
  ) {}

  private now() {
    return this.clock.now();
  }

  private async present(row: Pick<AccountRow, 'signature' | 'updatedAt'>): Promise<Signature> {
    const url = row.signature
      ? await this.policies.readUrl(row.signature, { windowSeconds: SIGNATURE_URL_WINDOW_SECONDS })
      : null;
    return { signature: url, updatedAt: row.signature ? row.updatedAt.toISOString() : null };
  }

  async mine(account: AccountRow): Promise<Signature> {
    const row = await accountNow(this.db, account.id);
    return this.present(row ?? account);
  }

  /** A new code ends the caller's earlier open ones: only the QR code on screen works. */
  async issueCode(account: AccountRow, ctx: AuditContext): Promise<UploadCode> {
    const now = this.now();
    const { code, hash } = newCode();
    const expiresAt = new Date(now.getTime() + SIGNATURE_CODE_SECONDS * 1000);
    await this.db.transaction(async (tx) => {
      await codes.endOpenCodes(tx, account.id, 'signature', now);
      await codes.insertCode(tx, { codeHash: hash, purpose: 'signature', accountId: account.id, expiresAt }, now);
      await writeAudit(tx, ctx, {
        action: 'signature_code_issue',
        category: 'security',
        outcome: 'success',
        actorId: account.id,
        actorUsername: account.username,
        targetType: 'account',
        targetId: account.id,
      });
    });
    return {
      code,
      url: `${SIGNATURE_PATH}?code=${encodeURIComponent(code)}`,
      expiresAt: Math.floor(expiresAt.getTime() / 1000),
    };
  }

  private async openCode(code: string) {
    const row = await codes.findCodeByHash(this.db, hashCode(code));
    const problem = codeProblem(row, ['signature'], this.now());
    if (problem) throw codeError(problem);
    return row!;
  }

  /** GET signature/policies: an upload URL for one PNG of at most 1 MB, authorized by the code. */
  async policy(query: CodeUploadPolicyQuery): Promise<UploadPolicy> {
    const row = await this.openCode(query.code);
    checkSignatureFile(resolveUploadType(query.contentType, query.fileName), query.size, PHONE_TYPES);
    const policy = await this.policies.issue(codeOwner(row.id), 'images', query);
    return { ...policy, maxBytes: MAX_SIGNATURE_BYTES, accept: [...PHONE_TYPES] };
  }

  private async checkedUpload(owner: string, key: string, accept: readonly string[]): Promise<OwnedUpload> {
    const upload = await this.policies.assertOwnedUpload(owner, 'images', key);
    checkSignatureFile(upload.contentType, upload.size, accept);
    return upload;
  }

  /** POST signature: the code's own upload becomes its account's signature; the code is spent. */
  async setByCode(code: string, key: string, ctx: AuditContext): Promise<Signature> {
    const row = await this.openCode(code);
    await this.checkedUpload(codeOwner(row.id), key, PHONE_TYPES);
    const { previous, updated } = await this.db.transaction(async (tx) => {
      if (!(await codes.useCode(tx, row.id, this.now()))) throw codeError('used');
      return this.replace(tx, row.accountId, key, 'code', ctx);
    });
    await this.policies.discard(previous).catch(() => undefined);
    return this.present(updated);
  }

  /** PUT signature/mine: the caller's own upload (policies/images) becomes their signature. */
  async setMine(account: AccountRow, key: string, ctx: AuditContext): Promise<Signature> {
    await this.checkedUpload(account.id, key, DESKTOP_TYPES);
    const { previous, updated } = await this.db.transaction((tx) => this.replace(tx, account.id, key, 'upload', ctx));
    await this.policies.discard(previous).catch(() => undefined);
    return this.present(updated);
  }

  async removeMine(account: AccountRow, ctx: AuditContext): Promise<Signature> {
    const { previous, updated } = await this.db.transaction((tx) => this.replace(tx, account.id, null, 'remove', ctx));
    await this.policies.discard(previous).catch(() => undefined);
    return this.present(updated);
  }

  private async replace(tx: Db, accountId: string, key: string | null, via: string, ctx: AuditContext) {
    const before = await lockAccount(tx, accountId);
    if (!before) throw codeError('invalid');
    const updated = await setSignature(tx, accountId, key, this.now());
    await writeAudit(tx, ctx, {
      action: key ? 'signature_set' : 'signature_remove',
      category: 'security',
      outcome: 'success',
      actorId: accountId,
      actorUsername: before.username,
      targetType: 'account',
      targetId: accountId,
      details: { via },
    });
    return { previous: before.signature === key ? null : before.signature, updated: updated! };
  }
}
