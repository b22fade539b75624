import type { Widen } from '../widen';
import type { printSheetsEn } from './en';

/** 简体中文：多个检查的报告合并打印（打印报告单）。 */
export const printSheetsChs: Widen<typeof printSheetsEn> = {
  printSheets: {
    action: '打印报告',
    actionTip: '将所选检查已审核的报告合并为一份文档打印，每份报告一页',
    selectHint: '请选择已审核报告的检查以合并打印。',
    selected: '已选 {{count}} 项',
    clear: '清除选择',
    notApproved: '以下检查没有已审核的报告，不能打印：{{names}}',
    noneApproved: '所选检查都没有已审核的报告。',
    notPrintable: '您在该机构没有打印报告的权限。',
    title: '打印报告',
    back: '返回检查列表',
    count: '共 {{count}} 份报告，每份一页',
    recorded: '已记录 {{count}} 份报告的打印。',
    noExams: '未选择检查：请在检查列表中选择检查，再点击“打印报告”。',
    tooMany: '一次最多合并打印 {{max}} 份报告，请减少所选检查。',
    notSameDayTitle: '所选检查不是同一天的',
    notSameDayHint: '只有同一检查日期的报告才能合并打印。这些检查分别在：',
    differentOrganizationsTitle: '所选检查属于不同机构',
    differentOrganizationsHint: '只有同一机构的报告才能合并打印。这些检查分别属于：',
    chooseAgain: '请返回并选择同一天、同一机构的检查。',
    unknownDay: '日期未知',
  },
};
