import type { Widen } from '../widen';
import type { registryPrintEn } from './en';

/** 简体中文：登记台的标签与申请单打印（/registry）。 */
export const registryPrintChs: Widen<typeof registryPrintEn> = {
  registryPrint: {
    labels: '打印标签 ({{count}})',
    referralForms: '打印申请单 ({{count}})',
    label: '标签',
    referralForm: '申请单',
    labelPrinter: '标签打印机，80×50 mm',
    labelSheet: 'A4 纸，每页 10 张标签',
    download: '下载 PDF',
    labelMore: '更多标签打印方式',
    formMore: '更多申请单打印方式',
    opened: 'PDF 已在新标签页打开，请在该页打印。',
    saved: 'PDF 已保存。',
    notSameDay: '申请单只能合并打印同一天的检查：请选择同一天的检查。',
    differentOrganizations: '请选择同一机构的检查。',
    cancelled: '已撤销的检查不能打印标签或申请单。',
    tooMany: '一次最多打印 {{max}} 个检查。',
  },
};
