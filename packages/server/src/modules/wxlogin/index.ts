// The face of the wxlogin module (WeChat website login, issue 27; docs/wechat-login.md): what app.ts
// and app-routes.ts use. Everything else in this folder is private to it.
export { wxLoginRoutes } from './wxlogin.routes.js';
export { WxLoginService, type WxLoginDeps } from './wxlogin.service.js';
