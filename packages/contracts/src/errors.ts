import { z } from 'zod';

/**
 * The one error vocabulary (DESIGN.md "Errors"). Every error answer is
 * `{ code, message, details? }` with the HTTP status fixed by the code.
 * The web maps each code to a translated message; `message` is English for logs and API users.
 */
export const errorStatus = {
  ValidationError: 400,
  InvalidJson: 400,
  PasswordTooSimple: 400,
  PasswordMismatch: 400,
  OldPasswordIncorrect: 400,
  FileTooLarge: 400,
  FileTypeNotAllowed: 400,
  InvalidUpload: 400,
  TooManyFiles: 400,
  ExportLimitExceeded: 400,
  StatisticsRangeInvalid: 400,
  StatisticsRangeTooLong: 400,
  ReportImageLimit: 400,
  VerificationCodeIncorrect: 400,
  VerificationCodeExpired: 400,
  MobileNotBound: 400,
  MobileChangeNeedsCode: 400,
  Unauthenticated: 401,
  TokenExpiredError: 401,
  JsonWebTokenError: 401,
  WrongCredentials: 401,
  AccountDisabled: 403,
  PasswordExpired: 403,
  InsufficientPermissions: 403,
  NoPermissionToEdit: 403,
  ReportCommentsDisabled: 403,
  RegistrationClosed: 403,
  PasswordChangeNotAllowed: 403,
  LinkInvalid: 403,
  BucketFull: 403,
  StatisticsDisabled: 403,
  SubscriptionExpired: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  UsernameTaken: 409,
  NameNotAvailable: 409,
  AlreadyInGroup: 409,
  LastAdmin: 409,
  CodeTaken: 409,
  Conflict: 409,
  NotChestCt: 409,
  CoExamConflict: 409,
  ReportLocked: 409,
  ReportVersionConflict: 409,
  ReportNotEditable: 409,
  NoPrintTemplate: 409,
  ReportNotApproved: 409,
  RatingAlreadySubmitted: 409,
  CriticalValueWrongStatus: 409,
  NotAcceptable: 406,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  LoginLocked: 423,
  TooManyRequests: 429,
  PaymentServiceDisabled: 403,
  NoPermissionToPay: 403,
  AlreadyApplied: 409,
  OrderAlreadyPaid: 409,
  OrderNotCancellable: 409,
  PaymentExpired: 409,
  PaymentChannelError: 502,
  SmsNotSent: 502,
  InsufficientCredit: 409,
  RefundExceedsPaid: 409,
  PaymentNotRefundable: 409,
  InvoiceOrderUnpaid: 409,
  InvoiceWrongChannel: 409,
  InvoiceAlreadyApplied: 409,
  InvoiceAlreadyIssued: 409,
  InvoiceMixedExperts: 409,
  InvoiceNotSupported: 409,
  ExpertSelectionInvalid: 400,
  IdempotencyKeyReused: 409,
  PaymentNotificationInvalid: 400,
  ConsultationWrongStatus: 409,
  ConsultationNoExam: 409,
  ConsultationNoResult: 409,
  ConsultationUnpaid: 409,
  ConsultationPaid: 409,
  ConsultationNotLinkable: 409,
  VideoRoomNotOpen: 409,
  VideoRoomFull: 409,
  UnknownError: 500,
  ServiceNotConfigured: 503,
  /** single sign-on (issue 27): the state is unknown, used or expired */
  SsoStateInvalid: 400,
  /** the identity provider refused the sign-in or answered something yyp does not accept */
  SsoProviderError: 502,
  /** the identity is linked to no account yyp lets sign in through this group's provider */
  SsoIdentityNotAllowed: 403,
  /** the identity is unknown and the group does not create accounts on a first login */
  SsoAccountCreationDisabled: 403,
  /** linking an account to a group's sign-in: the account or the identity is linked there already */
  SsoAlreadyLinked: 409,
  /** unlinking the group's sign-in from an account without a password would leave it no way in */
  SsoUnlinkNotAllowed: 409,
  /** WeChat login (issue 27): the login's state is unknown, used or expired */
  WxStateInvalid: 400,
  /** the WeChat identity's ticket (bind or register) is unknown, used or expired */
  WxTicketInvalid: 400,
  /** WeChat refused the login (code, app) or could not be reached */
  WxProviderError: 502,
  /** the WeChat identity is linked to an account that may not sign in (disabled) */
  WxIdentityNotAllowed: 403,
  /** the account already has another WeChat linked, or the WeChat another account */
  WxAlreadyLinked: 409,
  /** unlinking would leave the account without a way to sign in (it has no password) */
  WxUnlinkNotAllowed: 409,
} as const;

export type ErrorCode = keyof typeof errorStatus;
export const errorCodes = Object.keys(errorStatus) as ErrorCode[];

export const errorBodySchema = z.object({
  code: z.enum(errorCodes as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  details: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The two codes on which the client clears its token (spec 001 §8). */
export const tokenErrorCodes: readonly ErrorCode[] = ['TokenExpiredError', 'JsonWebTokenError'];

export function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    (value as { code: string }).code in errorStatus
  );
}
