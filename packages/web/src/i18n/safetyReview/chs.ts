import type { Widen } from '../widen';
import type { safetyReviewEn } from './en';

/** 简体中文：危急值与质控的跨报告查阅页面。 */
export const safetyReviewChs: Widen<typeof safetyReviewEn> = {
  safetyReview: {
    allOrganizations: '全部机构',
    organization: '机构',
    period: '时间段',
    patient: '患者',
    exam: '检查',
    openReport: '打开报告',
    critical: {
      title: '危急值',
      subtitle: '本人所在机构的危急值：登记临床科室的接收与复述，处理后闭环。',
      state: '状态',
      allStatuses: '全部状态',
      value: '危急值内容',
      sent: '上报',
      received: '接收（复述）',
      handled: '处理',
      empty: '没有符合条件的危急值。',
      stats: {
        label: '危急值统计',
        total: '总数',
        medianToReceive: '接收用时中位数',
        medianToHandle: '处理用时中位数',
        minutes: '{{value}} 分钟',
        period: '{{organization}} {{from}} 至 {{to}} 上报',
      },
    },
    quality: {
      title: '报告质控',
      subtitle: '本人所在机构已质控的报告，按质控时间倒序。点击一行打开报告。',
      allLevels: '全部等级',
      level: '等级',
      suggestion: '质控意见',
      items: '不满意项',
      reviewer: '质控人',
      gradedAt: '质控时间',
      reportStatus: '报告状态',
      empty: '没有符合条件的质控记录。',
      noOrganization: '您在任何机构都没有质控权限。',
    },
  },
};
