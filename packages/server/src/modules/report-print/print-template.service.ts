import {
  DEFAULT_PRINT_IMAGE_COLUMNS,
  footerPlainText,
  PRINT_HOSPITAL_NAME_MAX,
  PRINT_LOGO_SIZE,
  PRINT_LOGO_TYPES,
  PRINT_STAMP_TYPES,
  type PrintPicture,
  type PrintTemplate,
  type PrintTemplateAnswer,
  type PrintTemplateInput,
} from '@yyp/contracts';
import type { BlobStore } from '../../platform/blobs.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { PoliciesService } from '../policies/index.js';
import { readImageHeader } from '../report-library/index.js';
import type { Actor } from '../reports/index.js';
import { auditPrint, callerOf, type Caller } from './print-caller.js';
import * as store from './report-print.store.js';

/** Signed URLs of the pictures stay the same for 5 minutes and work 5 more. */
export const URL_WINDOW_SECONDS = 5 * 60;

interface PictureInfo {
  contentType: string;
  width: number;
  height: number;
  size: number;
}
type TemplateSettings = { logo?: PictureInfo; stamp?: PictureInfo };
type Warning = PrintTemplateAnswer['warnings'][number];

/**
 * The hospital name an organization's default template prints: its group's (the hospital's) name
 * and its own, as a shared report names them; one of them alone when it holds the other.
 */
export function defaultHospitalName(groupName: string, bucketName: string): string {
  const group = groupName.trim();
  const org = bucketName.trim();
  const name = !group || org.includes(group) ? org : !org || group.includes(org) ? group : `${group} ${org}`;
  return name.slice(0, PRINT_HOSPITAL_NAME_MAX);
}

/** The template in force: the one the admin saved, or the default every organization starts with. */
export interface EffectiveTemplate {
  row: store.PrintTemplateRow;
  isDefault: boolean;
}

/**
 * The organization's print template (spec 000 §3 Organization "print templates", §6 "only the
 * organization admin sets print templates", §9 logo 128×128 PNG/JPEG, stamps PNG): its pictures
 * are the admin's own uploads (policies/images), their size read from the header and kept with it.
 */
export class PrintTemplateService {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly policies: PoliciesService,
  ) {}

  private async presentPicture(key: string | null, info: PictureInfo | undefined): Promise<PrintPicture | null> {
    if (!key) return null;
    return {
      key,
      url: await this.policies.readUrl(key, { windowSeconds: URL_WINDOW_SECONDS }),
      contentType: info?.contentType ?? '',
      width: info?.width ?? 0,
      height: info?.height ?? 0,
      size: info?.size ?? 0,
    };
  }

  /**
   * The organization's template (issue 20 item 6: printing works out of the box). Until its admin
   * saves one, the default is derived, not stored: the hospital and organization names, no title
   * (the sheet prints the standard one in its language), no logo, stamp or footer, 2 image columns,
   * signatures shown. So organizations old and new print the same way, and a rename shows.
   */
  async effective(bucketId: string): Promise<EffectiveTemplate | undefined> {
    const saved = await store.findTemplate(this.db, bucketId);
    if (saved) return { row: saved, isDefault: false };
    const org = await store.organizationOf(this.db, bucketId);
    if (!org) return undefined;
    return {
      isDefault: true,
      row: {
        bucketId,
        hospitalName: defaultHospitalName(org.groupName, org.bucketName),
        title: '',
        logoKey: null,
        stampKey: null,
        footerHtml: '',
        imageColumns: DEFAULT_PRINT_IMAGE_COLUMNS,
        showSignatures: true,
        settings: {},
        updatedBy: null,
        updatedAt: org.createdAt,
      },
    };
  }

  private async presentTemplate({ row, isDefault }: EffectiveTemplate): Promise<PrintTemplate> {
    const settings = row.settings as TemplateSettings;
    const names = await store.people(this.db, [row.updatedBy]);
    return {
      bucketId: row.bucketId,
      hospitalName: row.hospitalName,
      title: row.title,
      logo: await this.presentPicture(row.logoKey, settings.logo),
      stamp: await this.presentPicture(row.stampKey, settings.stamp),
      footerHtml: row.footerHtml,
      footerText: footerPlainText(row.footerHtml),
      imageColumns: row.imageColumns,
      showSignatures: row.showSignatures,
      updatedAt: row.updatedAt.toISOString(),
      updatedBy: row.updatedBy ? { id: row.updatedBy, name: names.get(row.updatedBy)?.name ?? '' } : null,
      isDefault,
    };
  }

  /** GET buckets/{id}/print-template: for those who print and for the organization's admins (the default until saved). */
  async get(actor: Actor): Promise<PrintTemplateAnswer> {
    const c = callerOf(actor);
    if (!c.actions.has('report_print') && !c.actions.has('bucket_manage')) throw errors.forbidden('report_print');
    const template = await this.effective(c.bucketId);
    if (!template) throw errors.notFound('Organization');
    return { template: await this.presentTemplate(template), warnings: [] };
  }

  /**
   * A logo or stamp of the template: the key it holds already, or an upload of the caller's
   * (policies/images) of an accepted type, its size read from its header.
   */
  private async picture(
    c: Caller,
    field: 'logoKey' | 'stampKey',
    key: string | null | undefined,
    current: { key: string | null; info: PictureInfo | undefined },
    accept: readonly string[],
    warnings: Warning[],
  ): Promise<{ key: string | null; info: PictureInfo | undefined }> {
    if (key === undefined || key === current.key) return current;
    if (key === null) return { key: null, info: undefined };
    const upload = await this.policies.assertOwnedUpload(c.account.id, 'images', key);
    const head = readImageHeader(await this.blobs.get(key));
    if (!head) {
      throw new AppError('InvalidUpload', 'The file is not a PNG or JPEG image', { field, problem: 'typeMismatch' });
    }
    if (!accept.includes(head.contentType)) {
      throw new AppError(
        'FileTypeNotAllowed',
        `The ${field === 'logoKey' ? 'logo' : 'stamp'} must be ${accept.join(' or ')}`,
        {
          field,
          contentType: head.contentType,
          accept,
        },
      );
    }
    if (field === 'logoKey' && (head.width !== PRINT_LOGO_SIZE || head.height !== PRINT_LOGO_SIZE)) {
      warnings.push({
        field,
        code: 'LogoSize',
        message: `The logo is ${head.width}×${head.height}; ${PRINT_LOGO_SIZE}×${PRINT_LOGO_SIZE} prints best`,
      });
    }
    return { key, info: { contentType: head.contentType, width: head.width, height: head.height, size: upload.size } };
  }

  /** PUT buckets/{id}/print-template: the organization's admins only (the route checked bucket_manage). */
  async save(actor: Actor, input: PrintTemplateInput): Promise<PrintTemplateAnswer> {
    const c = callerOf(actor);
    const before = await store.findTemplate(this.db, c.bucketId);
    const settings = (before?.settings ?? {}) as TemplateSettings;
    const warnings: Warning[] = [];
    const logo = await this.picture(
      c,
      'logoKey',
      input.logoKey,
      { key: before?.logoKey ?? null, info: settings.logo },
      PRINT_LOGO_TYPES,
      warnings,
    );
    const stamp = await this.picture(
      c,
      'stampKey',
      input.stampKey,
      { key: before?.stampKey ?? null, info: settings.stamp },
      PRINT_STAMP_TYPES,
      warnings,
    );
    const { saved, before: replaced } = await store.saveTemplate(this.db, {
      bucketId: c.bucketId,
      hospitalName: input.hospitalName.trim(),
      title: (input.title ?? '').trim(),
      logoKey: logo.key,
      stampKey: stamp.key,
      footerHtml: input.footerHtml ?? '',
      imageColumns: input.imageColumns ?? DEFAULT_PRINT_IMAGE_COLUMNS,
      showSignatures: input.showSignatures ?? true,
      settings: { ...(logo.info ? { logo: logo.info } : {}), ...(stamp.info ? { stamp: stamp.info } : {}) },
      updatedBy: c.account.id,
      updatedAt: this.clock.now(),
    });
    for (const old of [replaced?.logoKey, replaced?.stampKey]) {
      if (old && old !== saved.logoKey && old !== saved.stampKey) {
        await this.policies.discard(old).catch(() => undefined);
      }
    }
    await auditPrint(
      this.db,
      c,
      'print_template.update',
      c.bucketId,
      { logo: logo.key !== null, stamp: stamp.key !== null },
      false,
    );
    return { template: await this.presentTemplate({ row: saved, isDefault: false }), warnings };
  }
}
