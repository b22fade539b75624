import ExcelJS from 'exceljs';
import { makeGroupMember, makeMember, makeOrganization, type BuiltOrganization } from '../../test/factories.js';
import type { TestApp } from '../../test/harness.js';

/** The staff of the procedure management tests: 放射科 with its admin, a member who registers and
 * manages steps and its group's admin; 乙城放射科 (another group) with its admin. */
export interface ProcedureStaff {
  org: BuiltOrganization;
  other: BuiltOrganization;
  tok: Record<string, string>;
}

export async function makeProcedureStaff(t: TestApp): Promise<ProcedureStaff> {
  const org = await makeOrganization(t, { name: '放射科' });
  const other = await makeOrganization(t, { name: '乙城放射科' });
  const tok: Record<string, string> = {};
  tok.admin = (await makeMember(t, org.bucketId, { level: 'admin' })).token;
  tok.member = (await makeMember(t, org.bucketId, { actions: ['registry_create', 'manage_steps'] })).token;
  tok.groupAdmin = (await makeGroupMember(t, org.groupId, 1)).token;
  tok.otherAdmin = (await makeMember(t, other.bucketId, { level: 'admin', groupLevel: 1 })).token;
  return { org, other, tok };
}

export { auditActions, ok } from '../../test/factories-platform.js';

/** An .xlsx file of one sheet holding `rows` (the first one the header), as the import takes it. */
export async function xlsxOf(rows: readonly (readonly (string | number | boolean | null)[])[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('检查项目');
  for (const row of rows) sheet.addRow([...row]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The import's header row in English and in Chinese (contracts PROCEDURE_IMPORT_COLUMNS order). */
export const EN_HEADER = [
  'name',
  'code',
  'English name',
  'price',
  'scanTech',
  'isEnhanced',
  'bodyPartCount',
  'modality',
  'aeTitle',
  'device groups',
  'steps',
  'reportDuringExam',
  'showLocalVideo',
  'imagingOptional',
] as const;
export const CHS_HEADER = [
  '名称',
  '编码',
  '英文名称',
  '价格',
  '扫描技术',
  '是否增强',
  '部位数',
  '检查类型',
  'AE Title',
  '设备组',
  '步骤',
  '检查中报告',
  '显示本地视频',
  '影像可选',
] as const;
