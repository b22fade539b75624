import { z } from 'zod';
import { DEFAULT_ANNOUNCEMENT_TEMPLATE, QUEUE_ACTIONS, QUEUE_STATUSES, unknownPlaceholders } from './calling-rules.js';
import { predictedWaitSchema, queuePredictionSchema } from './calling-wait.js';
import { isoDateSchema } from './registry.js';

/**
 * Patient calling (spec 000 §2 /calling, /calling/{bucketId}/screen-show, organization settings
 * "call queues"; §3 call queue type and queue exam; §4 check-in status; §6 calling_manage_queue,
 * calling_call; §9 text-to-speech; spec 001 §7 "Queue calling"; issue 23). The machine and the
 * numbering are in calling-rules.ts; the calls in calling-calls.ts.
 */

const text = (max: number) => z.string().trim().max(max);
const id = z.string().max(64);

/** Limits of the calling calls. */
export const MAX_QUEUE_TYPES_PER_BUCKET = 50;
export const MAX_SCREEN_TOKENS_PER_BUCKET = 50;
export const QUEUE_PAGE_SIZE = 100;
export const MISSED_LIST_DEFAULT = 20;
export const MAX_MISSED_LIST = 100;
/** How many waiting patients the screen shows per queue. */
export const SCREEN_NEXT_COUNT = 5;
export const MAX_ANNOUNCEMENT_LENGTH = 200;

/* ---------- queue types (the organization's call queues, one per room or modality) ---------- */

export const queueTypeInputSchema = z
  .object({
    displayName: text(32).min(1),
    /** the modality whose arrivals check in here (CT, MR, DX …) */
    modality: text(16).min(1),
    /** the room announced and shown for its calls (its display name when empty) */
    roomName: text(32).default(''),
    /** urgent exams take their place before the waiting exams that are not urgent */
    urgentFirst: z.boolean().default(true),
  })
  .strict();
export type QueueTypeInput = z.input<typeof queueTypeInputSchema>;

/** POST queue-types/add */
export const queueTypeAddSchema = queueTypeInputSchema.extend({ bucketId: id }).strict();
export type QueueTypeAdd = z.input<typeof queueTypeAddSchema>;

export const queueTypeSchema = z.object({
  id: z.string(),
  bucketId: z.string(),
  displayName: z.string(),
  modality: z.string(),
  roomName: z.string(),
  urgentFirst: z.boolean(),
  created: z.string(),
});
export type QueueType = z.infer<typeof queueTypeSchema>;

/* ---------- queue exams ---------- */

export const queueExamSchema = z.object({
  id: z.string(),
  bucketId: z.string(),
  queueTypeId: z.string(),
  queueTypeName: z.string(),
  scheduledExamId: z.string(),
  /** the number of the day in its queue */
  queueNo: z.number().int(),
  /** the hospital's day of the check-in, YYYY-MM-DD */
  checkInDate: z.string(),
  checkedInAt: z.string(),
  status: z.enum(QUEUE_STATUSES),
  urgent: z.boolean(),
  /** as people write it (no DICOM separators); masked (王*东) for a caller without view_privacy where privacy says so */
  patientName: z.string(),
  /** the name above is masked */
  masked: z.boolean(),
  patientGender: z.string(),
  modality: z.string(),
  /** the procedure's name, else the exam's description */
  examName: z.string(),
  accessionNumber: z.string(),
  /** the room of the last call ('' before the first) */
  room: z.string(),
  calledAt: z.string().nullable(),
  calledCount: z.number().int(),
  callerName: z.string(),
  /** when it became done or moved */
  finishedAt: z.string().nullable(),
  /** the queue exam this one was moved to (status moved) */
  movedToId: z.string().nullable(),
  /** the actions its status allows (calling-rules queueActionsFor) */
  actions: z.array(z.enum(QUEUE_ACTIONS)),
  /**
   * queue-exams/query of today, a waiting exam: about how many minutes until its call (its
   * queue's pace × its place in the waiting line, calling-wait.ts); null when the queue has too
   * little history; absent elsewhere
   */
  predictedWaitMinutes: predictedWaitSchema.optional(),
});
export type QueueExam = z.infer<typeof queueExamSchema>;

/** POST queue-exams/query: one organization's queue of a day, in queue order. */
export const queueQuerySchema = z
  .object({
    bucketId: id,
    /** the hospital's today when absent */
    checkInDate: isoDateSchema.optional(),
    queueTypeId: id.optional(),
    statuses: z.array(z.enum(QUEUE_STATUSES)).max(QUEUE_STATUSES.length).default([]),
    /** part of the patient's name or the accession number */
    q: text(64).default(''),
    skip: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(QUEUE_PAGE_SIZE).default(QUEUE_PAGE_SIZE),
  })
  .strict();
export type QueueQuery = z.input<typeof queueQuerySchema>;
export const queuePageSchema = z.object({
  items: z.array(queueExamSchema),
  count: z.number().int(),
  /** today's queue: the pace and predicted wait of each of the organization's queues (absent for another day) */
  predictions: z.array(queuePredictionSchema).optional(),
});
export type QueuePage = z.infer<typeof queuePageSchema>;

/**
 * POST queue-exams/check-in: an arrived scheduled exam into the queue of today. The queue type of
 * the exam's modality when none is named (the first of the organization's with that modality).
 * Arrival at the desk checks in by itself.
 */
export const checkInSchema = z.object({ scheduledExamId: id, queueTypeId: id.optional() }).strict();
export type CheckIn = z.input<typeof checkInSchema>;

/** POST queue-exams/{id}/action */
export const queueActionSchema = z
  .object({
    action: z.enum(QUEUE_ACTIONS),
    /** call, recall: the room announced (the queue's room name when empty) */
    room: text(32).default(''),
    /** move: the queue it moves to (another queue type of the organization) */
    targetQueueTypeId: id.optional(),
  })
  .strict()
  .refine((b) => b.action !== 'move' || b.targetQueueTypeId !== undefined, {
    message: 'move needs targetQueueTypeId',
    path: ['targetQueueTypeId'],
  });
export type QueueActionInput = z.input<typeof queueActionSchema>;

/** POST queue-exams/{id}/resort: a waiting exam to the place of the waiting exam numbered targetQueueNo. */
export const queueResortSchema = z.object({ targetQueueNo: z.number().int().min(1).max(100_000) }).strict();

/** POST queue-exams/call-next: the waiting exam with the lowest number of the queue, today. */
export const callNextSchema = z.object({ queueTypeId: id, room: text(32).default('') }).strict();
export type CallNext = z.input<typeof callNextSchema>;

/** The text announced and shown for one call. */
export const queueCallSchema = z.object({
  queueExamId: z.string(),
  queueTypeId: z.string(),
  queueNo: z.number().int(),
  /** masked (王*东): the screen and the event never carry the whole name */
  name: z.string(),
  room: z.string(),
  /** the announcement (the organization's template; the whole name only when speakFullName) */
  text: z.string(),
  calledAt: z.string(),
});
export type QueueCall = z.infer<typeof queueCallSchema>;

/** The answer of a call or recall (call-next, action call/recall): the exam and its announcement. */
export const queueActionResultSchema = z.object({
  queueExam: queueExamSchema.nullable(),
  /** the announcement of a call; null for the other actions and when nobody is waiting */
  call: queueCallSchema.nullable(),
});
export type QueueActionResult = z.infer<typeof queueActionResultSchema>;

/** GET queue-exams/calling and GET queue-exams/missed */
export const queueDayQuerySchema = z.object({ bucketId: id, checkInDate: isoDateSchema.optional() });
export const missedQuerySchema = queueDayQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(MAX_MISSED_LIST).default(MISSED_LIST_DEFAULT),
});

/** GET queue-exams/calling: the current call of each room (the exam called last there, while it is still called). */
export const callingBoardSchema = z.object({
  bucketId: z.string(),
  checkInDate: z.string(),
  calls: z.array(queueExamSchema),
});
export type CallingBoard = z.infer<typeof callingBoardSchema>;
export const missedListSchema = z.object({ items: z.array(queueExamSchema) });
export type MissedList = z.infer<typeof missedListSchema>;

/* ---------- the organization's calling settings ---------- */

export const callingSettingsSchema = z
  .object({
    /** {号} the number, {姓名} the name, {诊室} the room */
    announcementTemplate: text(MAX_ANNOUNCEMENT_LENGTH)
      .min(1)
      .default(DEFAULT_ANNOUNCEMENT_TEMPLATE)
      .refine((t) => unknownPlaceholders(t).length === 0, 'only the placeholders {号} {姓名} {诊室}'),
    /** the announcement speaks the whole name (the screen shows it masked all the same) */
    speakFullName: z.boolean().default(false),
  })
  .strict();
export type CallingSettings = z.output<typeof callingSettingsSchema>;
export const DEFAULT_CALLING_SETTINGS: CallingSettings = {
  announcementTemplate: DEFAULT_ANNOUNCEMENT_TEMPLATE,
  speakFullName: false,
};

/** GET calling-buckets: the organizations where the caller calls or manages the queue (group enableCalling on). */
export const callingBucketSchema = z.object({
  id: z.string(),
  name: z.string(),
  groupId: z.string(),
  groupName: z.string(),
  /** the calling actions the caller holds there (calling_call, calling_manage_queue) */
  actions: z.array(z.string()),
});
export type CallingBucket = z.infer<typeof callingBucketSchema>;

/* ---------- screen tokens (a waiting-room TV reads one organization's queue) ---------- */

export const screenTokenInputSchema = z.object({ label: text(64).min(1) }).strict();
export const screenTokenSchema = z.object({
  id: z.string(),
  bucketId: z.string(),
  label: z.string(),
  createdByName: z.string(),
  created: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type ScreenToken = z.infer<typeof screenTokenSchema>;
/** The answer of issuing: the token itself, shown this once (only its hash is kept). */
export const issuedScreenTokenSchema = z.object({ screenToken: screenTokenSchema, token: z.string() });
export type IssuedScreenToken = z.infer<typeof issuedScreenTokenSchema>;

/** The header a screen sends: `Authorization: Screen <token>`. */
export const SCREEN_AUTH_SCHEME = 'Screen';

/** One patient on the screen: the masked name and where the patient is called. */
export const screenPatientSchema = z.object({
  queueExamId: z.string(),
  queueTypeId: z.string(),
  queueNo: z.number().int(),
  name: z.string(),
  room: z.string(),
  status: z.enum(QUEUE_STATUSES),
  calledAt: z.string().nullable(),
  /** a waiting patient of `next`: about how many minutes until the call (null: too little history) */
  predictedWaitMinutes: predictedWaitSchema.optional(),
});
export type ScreenPatient = z.infer<typeof screenPatientSchema>;

/** GET screen/queue: what the waiting-room screen shows, names always masked. */
export const screenQueueSchema = z.object({
  bucketId: z.string(),
  /** the organization's display name */
  bucketName: z.string(),
  checkInDate: z.string(),
  queues: z.array(
    z.object({
      queueTypeId: z.string(),
      displayName: z.string(),
      roomName: z.string(),
      /** the next SCREEN_NEXT_COUNT waiting */
      next: z.array(screenPatientSchema),
      waitingCount: z.number().int(),
      /** the wait of a patient checking in now, whole minutes (calling-wait.ts); null: too little history */
      predictedWaitMinutes: predictedWaitSchema.optional(),
    }),
  ),
  /** the current call of each room, the newest first */
  calls: z.array(screenPatientSchema),
  missed: z.array(screenPatientSchema),
  /** the announcement text of each current call, by queue exam id (the screen speaks new ones) */
  announcements: z.record(z.string(), z.string()),
});
export type ScreenQueue = z.infer<typeof screenQueueSchema>;

/* ---------- live events (topic queue:<bucketId>) ---------- */

/** The live topic of an organization's queue. */
export const queueTopic = (bucketId: string) => `queue:${bucketId}`;

/**
 * What the queue publishes after every change: queue.changed (anything; clients read again) or
 * queue.called (a call or recall, with what the screen shows and says).
 */
export const queueEventSchema = z.object({
  type: z.enum(['queue.changed', 'queue.called']),
  bucketId: z.string(),
  checkInDate: z.string(),
  queueExamId: z.string().optional(),
  call: z
    .object({
      queueNo: z.number().int(),
      name: z.string(),
      room: z.string(),
      text: z.string(),
    })
    .optional(),
});
export type QueueEvent = z.infer<typeof queueEventSchema>;
