import type { Widen } from '../widen';
import type { notificationsEn } from './en';

/** 简体中文：通知铃铛与通知提示。 */
export const notificationsChs: Widen<typeof notificationsEn> = {
  notifications: {
    title: '通知',
    bellUnread: '通知，{{count}} 条未读',
    markAllRead: '全部标为已读',
    empty: '暂无通知',
    newestOnly: '仅显示最新的 5 条通知。',
    examUploaded: '新检查已上传',
    criticalValue: '危急值上报',
    remoteReport: '专家报告已返回',
    noName: '无患者姓名',
    maskedHint: '患者姓名已隐藏：您在该机构没有查看隐私信息的权限。',
  },
};
