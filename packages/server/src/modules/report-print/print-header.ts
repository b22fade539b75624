import { footerPlainText } from '@yyp/contracts';
import type { BlobStore } from '../../platform/blobs.js';
import type { Db } from '../../platform/db.js';
import { defaultHospitalName } from './print-template.service.js';
import * as store from './report-print.store.js';

/** What another printed document (a consultation's conclusion) takes of an organization's print template. */
export interface PrintHeader {
  hospitalName: string;
  /** the template's title ('' when it has none: the document prints its own) */
  title: string;
  logo: Buffer | null;
  footerText: string;
}

/**
 * The header of the organization's print template in force (the saved one, else the default of its
 * group's and its own names): hospital name, title, logo bytes and the footer as plain text.
 * Undefined when there is no such organization.
 */
export async function printHeaderOf(db: Db, blobs: BlobStore, bucketId: string): Promise<PrintHeader | undefined> {
  const saved = await store.findTemplate(db, bucketId);
  if (saved) {
    const logo = saved.logoKey ? await blobs.get(saved.logoKey).catch(() => null) : null;
    return {
      hospitalName: saved.hospitalName,
      title: saved.title,
      logo,
      footerText: footerPlainText(saved.footerHtml),
    };
  }
  const org = await store.organizationOf(db, bucketId);
  if (!org) return undefined;
  return { hospitalName: defaultHospitalName(org.groupName, org.bucketName), title: '', logo: null, footerText: '' };
}
