// The face of the accounts module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { accountRoutes } from './accounts.routes.js';
export { AccountsService } from './accounts.service.js';
export {
  clearLoginFailures,
  findAccountById,
  findAccountByUsername,
  insertAccount,
  setDisabled,
  setMustChangePassword,
  setPassword,
  updateProfile,
} from './accounts.store.js';
