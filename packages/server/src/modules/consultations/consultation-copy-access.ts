import { callerScope, findBucketsFacts } from '../../platform/access.js';
import type { Db } from '../../platform/db.js';
import { consultationActionsIn } from './consultation-access.js';
import { sharedCopiesIn } from './consultation-copy-access.store.js';

/**
 * Who sees a consultation's copy of a bound exam in the target organization (issue 25: "bound
 * exams are shared read-only with the target organization's participants for the life of the
 * consultation"): the participants on the target side of a consultation sharing it, as
 * ConsultationAccess counts them: its members (experts and joiners) and whoever holds
 * consultation_update in the target (who accepts the request and names the experts). Registered
 * with the exams module (its setConsultationCopyGate) by app.ts; the exams module hides the others.
 */
export async function consultationCopyAccess(
  db: Db,
  account: { id: string },
  bucketIds: readonly string[],
): Promise<{ visible: Set<string>; hidden: string[] }> {
  const copies = await sharedCopiesIn(db, bucketIds, account.id);
  const visible = new Set<string>();
  if (copies.length === 0) return { visible, hidden: [] };
  const { access } = await callerScope(db, account);
  const targets = await findBucketsFacts(db, [...new Set(copies.map((c) => c.bucketId))]);
  const accepting = new Set(
    targets.filter((b) => consultationActionsIn(access, b).has('consultation_update')).map((b) => b.id),
  );
  for (const c of copies) if (c.member || accepting.has(c.bucketId)) visible.add(c.copyId);
  return { visible, hidden: [...new Set(copies.map((c) => c.copyId))].filter((id) => !visible.has(id)) };
}
