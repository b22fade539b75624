import type { Widen } from '../widen';
import type { dicomRefusalsEn } from './en';

/** 简体中文：被拒绝的 DICOM 连接日志（平台管理员、集团审计员）。 */
export const dicomRefusalsChs: Widen<typeof dicomRefusalsEn> = {
  dicomRefusals: {
    title: '被拒绝的 DICOM 连接',
    subtitleAll: 'DICOM 服务拒绝的全部连接：未登记的主叫 AE 名称、错误的被叫 AE 名称、从其他地址连接的已登记设备。',
    subtitleGroup: '与{{group}}各机构登记的 AE 名称有关的拒绝记录。',
    scope: '范围',
    scopeAll: '全部（平台）',
    at: '时间',
    callingAe: '主叫 AE',
    calledAe: '被叫 AE',
    peer: '对方地址',
    reason: '原因',
    reasonCalledAe: '被叫 AE 名称不是本服务器的',
    reasonCallingAe: '主叫 AE 名称未登记',
    reasonCallingHost: '已登记的 AE 名称从其他地址连接',
    organization: '机构',
    outcome: '结果',
    denied: '拒绝',
    aeTitle: 'AE 名称',
    aeTitlePlaceholder: '主叫或被叫 AE 名称的一部分',
    range: '时间',
    search: '查询',
    reset: '重置',
    total: '共 {{count}} 条',
    forbiddenTitle: '无权查看被拒绝的 DICOM 连接',
    forbiddenDescription: '只有平台管理员和集团审计员可以查看被拒绝的 DICOM 连接。',
    open: '被拒绝的 DICOM 连接',
    backToAuditLog: '操作日志',
  },
};
