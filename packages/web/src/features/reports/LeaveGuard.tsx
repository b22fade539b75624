import { Button, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';

interface LeaveGuardProps {
  dirty: boolean;
  /**
   * The same asked at the moment of leaving: an action that saves and then navigates (approve and
   * print) leaves before the render that shows its text saved.
   */
  dirtyNow?: () => boolean;
  /** save the text, resolving when it is stored; absent when it cannot be saved now */
  onSave?: () => Promise<unknown>;
}

/**
 * Unsaved text is never dropped silently: leaving the page inside the app asks first (save, leave
 * anyway or stay), and closing or reloading the tab gets the browser's own question.
 */
export function LeaveGuard({ dirty, dirtyNow, onSave }: LeaveGuardProps) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      (dirtyNow ? dirtyNow() : dirty) &&
      currentLocation.pathname + currentLocation.search !== nextLocation.pathname + nextLocation.search,
  );

  useEffect(() => {
    if (!dirty) {
      return;
    }
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the question only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  async function handleSave() {
    if (!onSave) {
      return;
    }
    setSaving(true);
    try {
      await onSave();
      blocker.proceed?.();
    } catch {
      // The failure was shown where the save runs; stay on the page with the text.
      blocker.reset?.();
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open={blocker.state === 'blocked'}
      title={t('report.leave.title')}
      onCancel={() => blocker.reset?.()}
      footer={[
        <Button key="stay" onClick={() => blocker.reset?.()}>
          {t('report.leave.stay')}
        </Button>,
        <Button key="discard" danger onClick={() => blocker.proceed?.()}>
          {t('report.leave.discard')}
        </Button>,
        onSave ? (
          <Button key="save" type="primary" loading={saving} onClick={() => void handleSave()}>
            {t('report.leave.save')}
          </Button>
        ) : null,
      ]}
    >
      {t('report.leave.content')}
    </Modal>
  );
}
