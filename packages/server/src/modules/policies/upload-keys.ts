import crypto from 'node:crypto';
import { uploadKinds, uploadTypes, type UploadKind, type UploadType } from '@yyp/contracts';

/**
 * Keys of files uploaded with a policy: `uploads/<kind>/<accountId>/<uuid>.<ext>`. The server
 * chooses every part, so the key itself says who uploaded what kind of file and of which type.
 */
export const UPLOAD_PREFIX = 'uploads';

const typeOfExtension = new Map<string, UploadType>(
  Object.entries(uploadTypes).map(([type, ext]) => [ext, type as UploadType]),
);

const KEY_PATTERN = /^uploads\/([a-z]+)\/([A-Za-z0-9_-]{1,64})\/([0-9a-f-]{36})\.([a-z]{1,5})$/;

export function uploadKey(kind: UploadKind, accountId: string, type: UploadType): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(accountId)) throw new Error('account id unfit for a blob key');
  return `${UPLOAD_PREFIX}/${kind}/${accountId}/${crypto.randomUUID()}.${uploadTypes[type]}`;
}

export interface ParsedUploadKey {
  kind: UploadKind;
  accountId: string;
  type: UploadType;
}

/** The parts of a well-formed upload key, or null for anything else (caller paths included). */
export function parseUploadKey(key: string): ParsedUploadKey | null {
  const m = KEY_PATTERN.exec(key);
  if (!m) return null;
  const kind = m[1] as UploadKind;
  const type = typeOfExtension.get(m[4]!);
  if (!uploadKinds.includes(kind) || !type) return null;
  return { kind, accountId: m[2]!, type };
}

const startsWith = (head: Uint8Array, bytes: number[], at = 0) => bytes.every((b, i) => head[at + i] === b);
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/**
 * Whether a file's first bytes fit its declared type: what the upload claimed is checked against
 * what arrived, because an object store does not look inside (Word and Excel share containers).
 */
export function contentMatchesType(type: UploadType, head: Uint8Array): boolean {
  switch (type) {
    case 'image/png':
      return startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/jpeg':
      return startsWith(head, [0xff, 0xd8, 0xff]);
    case 'image/webp':
      return startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8);
    case 'image/gif':
      return startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'));
    case 'image/bmp':
      return startsWith(head, ascii('BM'));
    case 'image/tiff':
      return startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a]);
    case 'application/pdf':
      return startsWith(head, ascii('%PDF-'));
    case 'application/msword':
    case 'application/vnd.ms-excel':
      return startsWith(head, OLE);
    // Word and Excel (OOXML), XPS and OpenXPS are all ZIP packages
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
    case 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
    case 'application/vnd.ms-xpsdocument':
    case 'application/oxps':
      return startsWith(head, ZIP);
  }
}

/** Bytes contentMatchesType needs to decide. */
export const SNIFF_BYTES = 16;
