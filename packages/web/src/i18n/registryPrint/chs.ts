import { ORDER_TEMPLATE_FIELD_NAMES } from '@yyp/contracts';

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
    copies: '每个标签的份数',
    copiesUnit: '份',
    labelMore: '更多标签打印方式',
    formMore: '更多申请单打印方式',
    opened: 'PDF 已在新标签页打开，请在该页打印。',
    saved: 'PDF 已保存。',
    notSameDay: '申请单只能合并打印同一天的检查：请选择同一天的检查。',
    differentOrganizations: '请选择同一机构的检查。',
    cancelled: '已撤销的检查不能打印标签或申请单。',
    tooMany: '一次最多打印 {{max}} 个检查。',
    template: {
      title: '申请单模板',
      description: '登记台打印的申请单内容：页眉、标题、显示的字段和页脚说明。',
      isDefault: '当前为默认模板：医院和机构名称、标准标题和常用字段。保存后生效。',
      titleField: '标题',
      titlePlaceholder: '检查申请单',
      headerLines: '页眉',
      headerLinesHelp: '每行一条，最多 {{max}} 行，每行不超过 {{length}} 个字。',
      tooManyLines: '最多 {{max}} 行，每行不超过 {{length}} 个字。',
      fields: '显示的字段',
      footerNote: '页脚说明',
      saved: '申请单模板已保存。',
      updated: '{{name}} 于 {{time}} 保存',
    },
    fields: {
      ...ORDER_TEMPLATE_FIELD_NAMES.chs,
      barcode: '检查号条码',
    },
  },
};
