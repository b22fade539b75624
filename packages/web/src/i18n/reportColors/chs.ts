import type { Widen } from '../widen';
import type { reportColorsEn } from './en';

/** 简体中文：组的报告表格颜色（设置卡片），用于列表中的报告状态。 */
export const reportColorsChs: Widen<typeof reportColorsEn> = {
  reportColors: {
    title: '报告表格颜色',
    description: '检查列表和报告工作列表中报告状态的颜色。按优先级取第一个匹配的颜色，数字越小越优先。',
    add: '添加颜色',
    newTitle: '新建报告颜色',
    editTitle: '编辑报告颜色',
    name: '名称',
    field: '匹配项',
    value: '匹配值',
    status: '报告状态',
    color: '文字颜色',
    background: '背景颜色',
    priority: '优先级',
    sample: '示例',
    matches: '匹配',
    deleteConfirm: '删除颜色 {{name}}？',
    saved: '颜色 {{name}} 已保存',
    deleted: '颜色 {{name}} 已删除',
    empty: '尚无报告颜色，报告状态以默认颜色显示。',
    valueRequired: '请选择匹配值',
    invalidValue: '服务器不接受此值',
    fields: {
      status: '报告状态',
      critical: '未处理危急值',
      positive: '阳性',
      urgent: '急诊检查',
    },
    flag: { true: '是', false: '否' },
  },
};
