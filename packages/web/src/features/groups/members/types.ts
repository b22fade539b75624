import type { GroupAccessLevel } from '@yyp/contracts';

/** Someone just added to a group, for the list the wizard keeps. */
export interface AddedPerson {
  accountId: string;
  username: string;
  name: string;
  accessLevel: GroupAccessLevel;
  created: boolean;
}
