import { UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Result } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasCode } from '../../api/errors';
import { startLinkUpload } from '../../api/uploads';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { PageHeading } from '../../ui/PageHeading';
import { PageSpinner } from '../../ui/PageSpinner';
import { ChooseFilesStep } from './ChooseFilesStep';
import { linkScope, resumeOrOpen } from '../../shared/upload/pendingUploads';
import type { PickedFile } from './pickedFiles';
import { PublicUploadFrame } from '../../shared/layout/PublicUploadFrame';
import { UploadCompleteStep } from './UploadCompleteStep';
import { UploadProgressStep } from './UploadProgressStep';
import { UploadSteps } from './UploadSteps';
import { useUploadRun } from './useUploadRun';

type LinkStep = 0 | 1 | 2;

/** An unknown or revoked link answers NotFound; one that is not even token-shaped, ValidationError. */
function isInvalidLink(error: unknown): boolean {
  return hasCode(error, 'NotFound') || hasCode(error, 'ValidationError');
}

/**
 * /upload?token=: an external uploader sends exams to the organization of the link, without an
 * account. The same steps as the wizard, less the organization, which the link decides.
 */
export function PublicUploadPage({ token }: { token: string }) {
  const { t } = useTranslation();
  const run = useUploadRun();
  const [step, setStep] = useState<LinkStep>(0);
  const [files, setFiles] = useState<PickedFile[]>([]);
  const link = useQuery({
    queryKey: ['upload-link', token],
    queryFn: () => resumeOrOpen(linkScope(token), null, () => startLinkUpload(token)),
    staleTime: Infinity,
    retry: false,
  });
  const current: LinkStep = run.summary ? 2 : step;

  function handleStart() {
    if (link.data) {
      run.begin(linkScope(token), link.data.session, files, link.data.arrived);
      setStep(1);
    }
  }

  function handleUploadMore() {
    run.reset();
    setFiles([]);
    setStep(0);
    // The finished session is closed: the link opens a new one.
    void link.refetch();
  }

  if (link.isError) {
    return (
      <PublicUploadFrame>
        {isInvalidLink(link.error) ? (
          <Card variant="borderless">
            <Result
              status="warning"
              title={t('uploadLink.invalidTitle')}
              subTitle={t('uploadLink.invalidDescription')}
            />
          </Card>
        ) : (
          <LoadFailedAlert error={link.error} onRetry={() => void link.refetch()} />
        )}
      </PublicUploadFrame>
    );
  }
  if (!link.data) {
    return (
      <PublicUploadFrame>
        <PageSpinner />
      </PublicUploadFrame>
    );
  }
  const organization = link.data.session.bucketName;

  return (
    <PublicUploadFrame>
      <PageHeading
        title={t('uploadLink.title', { organization })}
        description={t('uploadLink.subtitle', { organization })}
      />
      <Card variant="borderless">
        <UploadSteps current={current} finished={Boolean(run.summary)} />
        {current === 0 && (
          <ChooseFilesStep
            files={files}
            onFilesChange={setFiles}
            resumeOrganization={link.data.arrived.size > 0 ? organization : null}
            action={
              <Button
                type="primary"
                disabled={files.length === 0 || link.isFetching}
                loading={link.isFetching}
                onClick={handleStart}
              >
                {t('upload.startUpload')}
              </Button>
            }
          />
        )}
        {current === 1 && <UploadProgressStep run={run} organization={organization} />}
        {current === 2 && run.summary && (
          <UploadCompleteStep
            summary={run.summary}
            organization={organization}
            actions={
              <Button type="primary" icon={<UploadOutlined />} onClick={handleUploadMore}>
                {t('upload.uploadMore')}
              </Button>
            }
          />
        )}
      </Card>
    </PublicUploadFrame>
  );
}
