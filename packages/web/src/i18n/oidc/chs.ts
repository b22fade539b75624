import type { oidcEn } from './en';

/** 简体中文：影像浏览器（OHIF）通过 yyp 登录（issue 28 第 11 项）。 */
export const oidcChs: typeof oidcEn = {
  oidcSignIn: {
    title: '登录影像浏览器',
    prompt: '{{client}}（{{origin}}）请求以您的 yyp 账号 {{user}} 打开影像。',
    scope: '在您保持登录 yyp 期间，它可以读取您有权查看的检查。',
    allow: '允许',
    deny: '取消',
    loading: '正在读取请求…',
    invalid: '此登录请求已过期或无效，请从影像浏览器重新开始。',
    redirecting: '正在返回影像浏览器…',
  },
};
