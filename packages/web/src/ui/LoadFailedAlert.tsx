import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../api/errorMessage';

/** A call that filled part of a page failed: say so with the reason and offer to try again. */
export function LoadFailedAlert({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      title={t('common.loadFailed')}
      description={errorMessage(t, error)}
      action={<Button onClick={onRetry}>{t('common.retry')}</Button>}
    />
  );
}
