import { Button, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errorMessage';
import type { FollowMode } from './useFollowMode';

/** The toolbar's shared-viewing group: Present, and Follow (with the presenter's name) while another presents. */
export function FollowButtons({ follow }: { follow: FollowMode }) {
  const { t } = useTranslation();
  if (!follow.enabled) return null;
  const open = follow.status === 'open';
  const unavailable = follow.error ? t('viewer.follow.unavailable', { reason: errorMessage(t, follow.error) }) : null;
  return (
    <Space size={4} data-follow-keep="" data-testid="follow-controls">
      <Tooltip title={unavailable ?? (open ? t('viewer.follow.presentTip') : t('viewer.follow.connecting'))}>
        <Button
          size="small"
          type={follow.presenting ? 'primary' : 'default'}
          disabled={!open}
          onClick={follow.togglePresent}
          data-testid="follow-present"
          aria-pressed={follow.presenting}
        >
          {follow.presenting ? t('viewer.follow.stopPresenting') : t('viewer.follow.present')}
        </Button>
      </Tooltip>
      {/* something to follow only while another presents */}
      {follow.presenter && !follow.presenting && (
        <Tooltip title={unavailable ?? t('viewer.follow.followTip')}>
          <Button
            size="small"
            type={follow.following ? 'primary' : 'default'}
            disabled={!open}
            onClick={follow.toggleFollow}
            data-testid="follow-follow"
            aria-pressed={follow.following}
          >
            {t('viewer.follow.followName', { name: follow.presenter.name })}
          </Button>
        </Tooltip>
      )}
    </Space>
  );
}

/** The banner over the images: who is followed (and how to leave), or that you present. */
export function FollowBanner({ follow }: { follow: FollowMode }) {
  const { t } = useTranslation();
  if (!follow.enabled) return null;
  const action = follow.presenting
    ? { text: t('viewer.follow.presenting'), label: t('viewer.follow.stopPresenting'), run: follow.togglePresent }
    : follow.presenter && follow.following
      ? {
          text: t('viewer.follow.following', { name: follow.presenter.name }),
          label: t('viewer.follow.leave'),
          run: follow.toggleFollow,
        }
      : follow.presenter
        ? {
            text: t('viewer.follow.someonePresents', { name: follow.presenter.name }),
            label: t('viewer.follow.rejoin'),
            run: follow.toggleFollow,
          }
        : null;
  if (!action) return null;
  return (
    <div
      className="viewer-follow-banner"
      data-follow-keep=""
      data-testid="follow-banner"
      data-state={follow.presenting ? 'presenting' : follow.following ? 'following' : 'paused'}
      role="status"
    >
      <span>{action.text}</span>
      {follow.missingStudy && <span className="viewer-follow-note"> · {t('viewer.follow.missingStudy')}</span>}
      {' · '}
      <Button size="small" type="link" onClick={action.run} data-testid="follow-banner-action">
        {action.label}
      </Button>
    </div>
  );
}
