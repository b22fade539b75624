/** An account as pickers show it: its name, with the username that tells namesakes apart. */
export function accountLabel(account: { name: string; username: string }): string {
  return `${account.name} (${account.username})`;
}

/** Members of a group or an organization as the choices of a picker, by account id. */
export function memberOptions(
  members: readonly { accountId: string; name: string; username: string }[],
): { value: string; label: string }[] {
  return members.map((m) => ({ value: m.accountId, label: accountLabel(m) }));
}
