import type { Widen } from '../widen';
import type { bindingEn } from './en';

/** 简体中文：把检查的影像匹配（绑定）到登记的检查（检查列表的行菜单）。 */
export const bindingChs: Widen<typeof bindingEn> = {
  binding: {
    menu: '匹配登记检查',
    title: '匹配到登记的检查',
    intro: '选择这些影像所属的{{org}}登记检查。',
    search: '姓名、患者编号或检查号',
    empty: '没有可匹配的登记检查。',
    loadFailed: '登记检查加载失败。',
    column: {
      patient: '患者',
      accession: '检查号',
      procedure: '检查项目',
      scheduled: '预约时间',
      status: '状态',
      images: '影像',
    },
    hasImages: '{{count}} 幅影像',
    noImages: '无',
    replaceWarning:
      '该登记检查已有 {{count}} 幅影像。绑定会删除这些影像及其关联数据（AI 结果、关键图像、检查打包文件），报告保留。',
    needsAdmin: '只有机构管理员可以替换登记检查的影像。',
    confirmLabel: '输入检查号 {{accession}} 以确认',
    confirmMismatch: '检查号不一致。',
    ok: '匹配',
    okReplace: '替换影像',
    done: '已匹配到 {{accession}}。',
    doneReplaced: '已绑定到 {{accession}}，删除原有影像 {{count}} 幅。',
  },
};
