// The face of the ledger module (issue 24, billing-interfaces.md): the double-entry ledger every money
// event posts to, balances as sums, statements and the credits/create-token bearers. Its stores are private.
export {
  LedgerUnbalancedError,
  balanceOf,
  consumeCreditToken,
  entriesForOrder,
  groupCreditBalance,
  issueCreditToken,
  lockGroupCredit,
  postTxn,
} from './ledger.service.js';
export type { CreditTokenGrant, IssueCreditTokenInput, PostTxnInput } from './ledger.service.js';
export { statement, statementSums, type StatementFilter } from './ledger-statement.js';
export { accountMonthSums, type AccountMonthSum } from './ledger-revenue.store.js';
