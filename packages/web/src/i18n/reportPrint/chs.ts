import { REPORT_SHEET_LABELS } from '@yyp/contracts';
import type { reportPrintEn } from './en';

/** 简体中文：报告打印页与机构打印模板。 */
export const reportPrintChs: typeof reportPrintEn = {
  reportPrint: {
    page: {
      title: '打印报告',
      print: '打印',
      download: '下载 PDF',
      back: '返回报告',
      printed: '已打印',
      recorded: '已记录打印时间',
      masked: '您在本机构无权查看患者隐私信息，已脱敏显示',
      noTemplate: '请联系机构管理员设置打印模板（机构 → 设置）',
    },
    sheet: {
      ...REPORT_SHEET_LABELS.chs,
      keyImage: '关键图像 {{index}}',
    },
    editor: {
      print: '打印',
      printTip: '打开本报告的打印页',
    },
    template: {
      title: '打印模板',
      description: '本机构报告的打印样式：抬头、图片、关键图像列数与页脚',
      isDefault:
        '报告按标准模板打印：下方的医院和机构名称、标准标题，无徽标、印章和页脚。修改并保存即成为本机构的模板。',
      hospitalName: '医院名称',
      reportTitle: '报告标题',
      reportTitlePlaceholder: REPORT_SHEET_LABELS.chs.defaultTitle,
      logo: '徽标',
      logoHint: 'PNG 或 JPEG，建议 128×128 像素',
      stamp: '印章',
      stampHint: 'PNG，建议透明背景',
      upload: '上传',
      remove: '移除',
      footer: '页脚',
      footerHint: '按纯文本打印，标记会被去除',
      imageColumns: '每行关键图像数',
      showSignatures: '打印签名图片',
      save: '保存模板',
      saved: '打印模板已保存',
      logoSize: '徽标为 {{width}}×{{height}} 像素，建议 128×128',
      updatedBy: '{{name}} 于 {{time}} 修改',
    },
  },
};
