import type { entriesEn } from './en';
import type { Widen } from '../widen';

/** 医院系统签名登录（/ss-login、/go）与平台全局设置的文案（issue 27）。 */
export const entriesChs: Widen<typeof entriesEn> = {
  entry: {
    title: '从医院系统登录',
    working: '正在登录…',
    leaving: '正在退出上一位用户…',
    invalidTitle: '登录链接无效',
    invalidHint: '链接已被修改，或不是为本站签发的。请从医院系统重新打开。',
    expiredTitle: '登录链接已过期',
    expiredHint: '链接生成后五分钟内有效。请从医院系统重新打开。',
    usedTitle: '登录链接已使用过',
    usedHint: '每个链接只能登录一次。请从医院系统重新打开以获取新链接。',
    accountTitle: '该账号不能在此登录',
    accountHint: '该账号不是医院集团的成员，或已被停用。请联系管理员。',
    failedTitle: '登录失败',
    failedHint: '无法连接服务器，请稍后重试。',
    retry: '重试',
    toLogin: '前往登录页',
  },
  globalSettings: {
    tab: '全局设置',
    description: '向平台所有用户展示的设置。留空即清除该项。',
    helpUrl: '帮助地址',
    helpUrlHint: '帮助链接打开的 http 或 https 地址。',
    supportPhone: '客服电话',
    supportEmail: '客服邮箱',
    announcement: '公告',
    announcementHint: '向所有用户展示的通知（纯文本，最多 500 字）。',
    save: '保存',
    saved: '全局设置已保存。',
    invalidUrl: '请输入以 http:// 或 https:// 开头的地址。',
    invalidPhone: '请使用数字、空格、短横线和括号，可以 + 开头。',
    invalidEmail: '请输入有效的邮箱地址。',
    loadFailed: '无法加载全局设置。',
  },
};
