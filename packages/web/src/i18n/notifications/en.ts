/** English: the notification bell and its toasts. */
export const notificationsEn = {
  notifications: {
    title: 'Notifications',
    bellUnread: 'Notifications, {{count}} unread',
    markAllRead: 'Mark all read',
    empty: 'No notifications',
    newestOnly: 'The 5 newest notifications are shown.',
    examUploaded: 'New exam uploaded',
    criticalValue: 'Critical value reported',
    remoteReport: 'Expert report received',
    noName: 'No patient name',
    maskedHint: 'The patient name is hidden: you do not have the privacy permission in this organization.',
  },
};
