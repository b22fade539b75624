// The face of the notifications module: what other modules, app.ts and the CLI may use. Everything else in
// this folder (its stores above all) is private to it; eslint.config.js enforces the arrow.
export { examNotification } from './notifications.presenter.js';
export { notificationRoutes } from './notifications.routes.js';
export { NotificationsService } from './notifications.service.js';
export { examForNotification, examNotificationRows, type ExamNotificationInput } from './notifications.store.js';
