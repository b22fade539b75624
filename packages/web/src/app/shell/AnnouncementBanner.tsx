import { Alert } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGlobalConfigs } from '../../shared/globalConfigs/useGlobalConfigs';

/** Where the text of the announcement a user hid is kept: a new announcement shows again. */
export const DISMISSED_ANNOUNCEMENT_KEY = 'yyp.announcementDismissed';

function dismissedText(): string | null {
  try {
    return localStorage.getItem(DISMISSED_ANNOUNCEMENT_KEY);
  } catch {
    return null;
  }
}

/**
 * The platform's announcement (global config `announcement`, set by a platform admin on
 * /settings/admin) above every signed-in screen, until the user hides it; plain text.
 */
export function AnnouncementBanner() {
  const { t } = useTranslation();
  const configs = useGlobalConfigs();
  const [hidden, setHidden] = useState(dismissedText);
  const text = configs.data?.announcement;
  if (!text || text === hidden) return null;
  const hide = () => {
    try {
      localStorage.setItem(DISMISSED_ANNOUNCEMENT_KEY, text);
    } catch {
      // storage unavailable: hidden for this page only
    }
    setHidden(text);
  };
  return (
    <Alert
      className="yyp-shell__announcement"
      role="status"
      aria-label={t('help.announcement')}
      type="info"
      showIcon
      banner
      message={text}
      closable={{ 'aria-label': t('help.dismissAnnouncement') }}
      onClose={hide}
    />
  );
}
