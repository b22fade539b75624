/** Business constants and limits of spec 000 §9 and spec 001 §9. */
export const API_BASE = '/yyp/api/v1/';
export const LANGUAGES = ['chs', 'en', 'tib'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'chs';

export const REQUEST_TIMEOUT_MS = 15_000;
export const REPORT_VIEW_TIMEOUT_MS = 30_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const TOAST_SECONDS = 3;
export const NOTIFICATION_TOAST_SECONDS = 10;
export const INACTIVITY_CHECK_MS = 60_000;
export const CONSULTATION_POLL_MS = 60_000;
export const NEW_EXAM_POLL_MS = 30_000;

export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_LOCKOUT_MINUTES = 30;

export const EXAM_PAGE_SIZE = 20;
export const EXAM_FALLBACK_LIMIT = 50;
export const ORDER_PAGE_SIZE = 10;
export const REGISTRY_PAGE_SIZE = 10;
export const CONSULTATION_PAGE_SIZE = 20;
export const SEARCH_LIMIT = 10;
export const REPORT_PAGE_SIZE = 10;

export const MAX_EXAMS_PER_REGISTRATION = 5;
export const MAX_CONFIRMATIONS = 15;
export const MAX_BODYPART_COUNT = 100;
export const MAX_NOTE_LENGTH = 256;
export const MAX_CRITICAL_VALUE_LENGTH = 255;
export const MAX_REPORT_IMAGES = 6;
export const MAX_REPORT_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_EXPORT_EXAMS = 3000;
export const MAX_EXPORT_ORDERS = 1000;
export const RECOVERY_DAYS = 30;
export const PAST_EXAM_ROWS = 15;
export const MAX_UPLOAD_NOTIFY_USERS = 2;
export const MAX_TAG_LENGTH = 10;

export const DEFAULT_VIEWER_SIZE = { width: 800, height: 815 } as const;
export const DEFAULT_IMAGE_COLUMN = 2;

/** Storage keys of spec 000 §9. */
export const ACCESS_TOKEN_KEY = 'yyp.accessToken';
export const CHARGE_TOKEN_KEY = 'yyp.chargeToken';
export const LANGUAGE_KEY = 'yyp.language';

/** A WeChat top-up of a group's balance (credits/weixin-top-up): at least ¥1.00, at most ¥50,000.00. */
export const TOPUP_MIN_FEN = 100;
export const TOPUP_MAX_FEN = 5_000_000;
/** charge/request: the caller's own charges, a page of CHARGE_PAGE_SIZE (at most MAX_CHARGE_PAGE). */
export const CHARGE_PAGE_SIZE = 10;
export const MAX_CHARGE_PAGE = 100;
