import type { Messages } from '../en';

/** 微信网站登录（issue 27）：登录页按钮、/loginCallback?source=wx 的绑定卡片、/settings/mobile 的微信卡片。 */
export const wxChs: Pick<Messages, 'wx'> = {
  wx: {
    signIn: '微信登录',
    signInLabel: '使用微信登录',
    callbackTitle: '微信登录中',
    bindTitle: '将微信绑定到账号',
    bindIntro: '微信“{{nickname}}”尚未绑定账号。请用用户名和密码登录一次完成绑定，下次即可直接用微信登录。',
    bindSubmit: '绑定并登录',
    registerToggle: '改为创建新账号',
    bindToggle: '改为绑定已有账号',
    registerIntro: '新账号只能用此微信登录（没有密码）。',
    registerSubmit: '创建账号并登录',
    settingsTitle: '微信',
    linkedAs: '已于{{date}}绑定微信“{{nickname}}”。',
    notLinked: '未绑定微信。请退出后在登录页选择微信登录，并在那里绑定此账号。',
    unlink: '解除微信绑定',
    unlinkConfirm: '确定解除此微信绑定？解除后将不能用它登录。',
    unlinked: '已解除微信绑定',
    cannotUnlink: '此账号只能用微信登录，解除绑定将无法登录。',
    noPassword: '您的账号使用微信登录，没有可修改的密码。',
  },
};
