import { UploadOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import type { UploadCorrection } from '@yyp/contracts';
import { Button, Card } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { UploadableBucket } from '../../api/contractTypes';
import { startBucketUpload } from '../../api/uploads';
import { useNotify } from '../../shared/notify/useNotify';
import { useSessionState } from '../../shared/session/useSessionState';
import { MissingResult } from '../../ui/MissingResult';
import { PageHeading } from '../../ui/PageHeading';
import { ChooseFilesStep } from './ChooseFilesStep';
import { ExamInfoStep } from './ExamInfoStep';
import { accountScope, findAccountPending, resumeOrOpen, type PendingUpload } from '../../shared/upload/pendingUploads';
import type { PickedFile } from './pickedFiles';
import { UploadCompleteStep } from './UploadCompleteStep';
import { UploadProgressStep } from './UploadProgressStep';
import { UploadSteps } from './UploadSteps';
import { useUploadableBuckets } from '../../shared/upload/useUploadableBuckets';
import { useUploadRun } from './useUploadRun';

type WizardStep = 0 | 1 | 2 | 3;

/** The only organization, or the one of an unfinished upload, is chosen already. */
function preselectedBucket(buckets: UploadableBucket[] | undefined, pending: PendingUpload | null) {
  if (buckets?.length === 1) {
    return buckets[0]?.id;
  }
  return buckets?.find((bucket) => bucket.id === pending?.bucketId)?.id;
}

/** /upload signed in: the 4-step upload wizard of spec 000 §2. */
export function UploadPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notify = useNotify();
  const username = useSessionState().session?.username ?? '';
  const buckets = useUploadableBuckets();
  const run = useUploadRun();
  const [step, setStep] = useState<WizardStep>(0);
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [chosenBucket, setChosenBucket] = useState<string>();
  const [pending, setPending] = useState(() => findAccountPending(username));
  const open = useMutation({
    mutationFn: (bucketId: string) =>
      resumeOrOpen(accountScope(username, bucketId), bucketId, () => startBucketUpload(bucketId)),
  });
  const bucketId = chosenBucket ?? preselectedBucket(buckets.data, pending);
  const current: WizardStep = run.summary ? 3 : step;
  const organization = run.session?.bucketName ?? '';

  async function handleStart(corrections: UploadCorrection | undefined) {
    if (!bucketId) {
      return;
    }
    try {
      const { session, arrived } = await open.mutateAsync(bucketId);
      run.begin(accountScope(username, bucketId), session, files, arrived, corrections);
      setPending(null);
      setStep(2);
    } catch (error) {
      notify.error(error);
    }
  }

  function handleUploadMore() {
    run.reset();
    setFiles([]);
    setStep(0);
  }

  if (buckets.data?.length === 0) {
    return (
      <div className="yyp-page yyp-page--narrow">
        <MissingResult
          status="403"
          title={t('upload.noOrganizationTitle')}
          description={t('upload.noOrganizationDescription')}
          backTo="/studies"
          backLabel={t('upload.backToStudies')}
        />
      </div>
    );
  }

  return (
    <div className="yyp-page yyp-page--narrow">
      <PageHeading title={t('upload.title')} description={t('upload.subtitle')} />
      <Card variant="borderless">
        <UploadSteps current={current} finished={Boolean(run.summary)} withExamInfo />
        {current === 0 && (
          <ChooseFilesStep
            files={files}
            onFilesChange={setFiles}
            resumeOrganization={pending?.session.bucketName}
            action={
              <Button type="primary" disabled={files.length === 0} onClick={() => setStep(1)}>
                {t('upload.next')}
              </Button>
            }
          />
        )}
        {current === 1 && (
          <ExamInfoStep
            buckets={buckets}
            files={files}
            bucketId={bucketId}
            onBucketChange={setChosenBucket}
            starting={open.isPending}
            onBack={() => setStep(0)}
            onStart={(corrections) => void handleStart(corrections)}
          />
        )}
        {current === 2 && <UploadProgressStep run={run} organization={organization} />}
        {current === 3 && run.summary && (
          <UploadCompleteStep
            summary={run.summary}
            organization={organization}
            actions={[
              <Button key="more" icon={<UploadOutlined />} onClick={handleUploadMore}>
                {t('upload.uploadMore')}
              </Button>,
              <Button key="studies" type="primary" onClick={() => void navigate('/studies')}>
                {t('upload.goToStudies')}
              </Button>,
            ]}
          />
        )}
      </Card>
    </div>
  );
}
