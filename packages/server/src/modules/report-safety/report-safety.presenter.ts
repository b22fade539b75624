import {
  criticalValueLevelKey,
  type CriticalValue,
  type CriticalValueStatus,
  type QualityLevel,
  type ReportComment,
  type ReportQuality,
  type ReportRating,
  type ReportTableColor,
  type ReportTableColorField,
} from '@yyp/contracts';
import type { reportComments, reportQuality, reportRatings, reportTableColors } from '../../db/schema.js';
import type { CriticalValueRow } from './critical-values.store.js';

/** Rows never leave raw (CONVENTIONS 4): each answer is shaped to its contract here. */

type Names = ReadonlyMap<string, string>;
const person = (id: string | null, names: Names) => (id ? { id, name: names.get(id) ?? '' } : null);
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentCriticalValue(row: CriticalValueRow, names: Names): CriticalValue {
  return {
    id: row.id,
    reportId: row.reportId,
    bucketId: row.bucketId,
    itemId: row.itemId,
    text: row.text,
    // Level words stored before levels were keys (高, 中, 低) read as their keys.
    level: criticalValueLevelKey(row.level) ?? row.level,
    status: row.status as CriticalValueStatus,
    notifyDept: row.notifyDept,
    reporter: person(row.reportedBy, names),
    sentAt: row.sentAt.toISOString(),
    receiver: row.receiver,
    receivedAt: iso(row.receivedAt),
    confirmor: row.confirmor,
    readbackOpinion: row.readbackOpinion,
    handler: person(row.handlerId, names),
    handledAt: iso(row.handledAt),
    handleNote: row.handleNote,
  };
}

export function presentQuality(row: typeof reportQuality.$inferSelect, names: Names): ReportQuality {
  return {
    reportId: row.reportId,
    bucketId: row.bucketId,
    level: row.level as QualityLevel,
    suggestion: row.suggestion,
    unsatisfactoryItems: row.unsatisfactoryItems,
    creator: person(row.creatorId, names),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentRating(row: typeof reportRatings.$inferSelect, names: Names, callerId: string): ReportRating {
  return {
    id: row.id,
    reportId: row.reportId,
    rater: person(row.raterId, names),
    score: row.score,
    comment: row.comment,
    createdAt: row.createdAt.toISOString(),
    mine: row.raterId === callerId,
  };
}

export function presentComment(row: typeof reportComments.$inferSelect, names: Names, callerId: string): ReportComment {
  return {
    id: row.id,
    reportId: row.reportId,
    author: person(row.authorId, names),
    text: row.text,
    createdAt: row.createdAt.toISOString(),
    mine: row.authorId === callerId,
  };
}

export function presentTableColor(row: typeof reportTableColors.$inferSelect): ReportTableColor {
  return {
    id: row.id,
    groupId: row.groupId,
    name: row.name,
    field: row.field as ReportTableColorField,
    value: row.value,
    color: row.color,
    background: row.background,
    priority: row.priority,
  };
}
