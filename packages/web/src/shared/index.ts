// packages/web/src/shared/: what several features use (issue 21 step 6). Import the file itself
// (shared/notify/useNotify, …); this file only documents the layer.
//
// The web's parts and their arrows (eslint-rules/boundaries.js, rules feature-alone and ui-alone):
//   app/       composes: the providers, the route table, the shell; the only part that imports
//              features (and it may wrap one feature's component into another's screen).
//   features/  one folder per screen area; a feature imports shared/, ui/, api/, i18n/ and its own
//              files, never another feature or app/.
//   shared/    hooks, labels and helpers that more than one feature uses; may call api/ and hold
//              react-query state; imports no feature and not app/.
//   ui/        presentational components with no data access (props in, events out).
//   api/       the HTTP client and one function per call; i18n/ the strings.
//   test/      test support (fake API, fixtures, the app's providers for a screen's test).
//
// shared/ by concern:
//   notify/       useNotify (bottom toasts), toastPlan (at most 3 notification toasts), pollInterval
//   session/      useSessionState (the stored sign-in), guards (route loaders, redirects)
//   account/      useMe / useUpdateMe, the language preference, account suggestions
//   domain/       useDomain (branding and policy of the site)
//   globalConfigs/ useGlobalConfigs (the platform's settings by key: help, support, announcement)
//   permissions/  usePermissions, useHolds, useHeldActions (GET accounts/me/permissions)
//   groups/       the caller's groups and a group's data (useGroups), group levels, the groups lists' columns and card (GroupsTableCard)
//   labels/       study field and status labels, action labels, group and organization level tags,
//                 an account as pickers show it (accountOptions)
//   forms/        form rules (required, a choice of at least one, username, password policy, lengths); the account forms' fields
//                 (AccountFields, PasswordFields); a refusal on its field (fieldRefusal); the settings
//                 cards' form, save and Save button (SettingsFormCard)
//   format/       dates and times as shown
//   queries/      query keys and hooks of exams several screens refresh or read (usePastExams)
//   rules/        RuleTableCard: a group's rule table (assign rules, colour rules, report colours)
//   upload/       pending uploads (kept across sign-out), the organizations one may upload into
//   links/        links into a screen with its state (studyLinks: /studies with filters, a statistic's drill-down)
//   layout/       the public frame of the upload-by-link, upload-by-code and phone signature pages
//   live.ts       LiveClient (live events over one WebSocket, reconnect, resync), accountLiveClient();
//                 liveHooks.ts useLiveTopic; liveBackoff.ts the reconnect timing (pure)
export {};
