import type { Widen } from '../widen';
import type { identityEn } from './en';

/** 简体中文：身份与个人设置（手机绑定）。 */
export const identityChs: Widen<typeof identityEn> = {
  mobile: {
    menu: '手机绑定',
    title: '手机绑定',
    description: '绑定的手机号用于接收找回密码的验证码。更换手机号需输入发送到新号码的验证码。',
    current: '已绑定号码',
    none: '未绑定手机号',
    bind: '绑定',
    change: '更换',
    newNumber: '新手机号',
    numberHint: '大陆 11 位手机号；境外号码请以 + 和国家代码开头。',
    invalid: '请输入 11 位大陆手机号，或以 + 开头的国家代码和号码',
    sendCode: '获取验证码',
    resendIn: '{{seconds}} 秒后重新获取',
    codeSent: '验证码已发送至 {{mobile}}，5 分钟内有效。',
    codeHint: '短信中的 6 位验证码',
    codeInvalid: '请输入 6 位数字验证码',
    triesLeft: '验证码不正确，还可尝试 {{count}} 次',
    submit: '绑定此号码',
    bound: '手机号已绑定',
    remove: '解除绑定',
    removeConfirm: '确定解除绑定手机号？解除后忘记密码只能由管理员重置。',
    removed: '已解除手机号绑定',
    noSms: '本站无法发送短信，号码将直接保存，无需验证码。',
    save: '保存号码',
    saved: '手机号已保存',
    manage: '前往“手机绑定”管理',
  },
};
