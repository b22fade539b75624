import { Steps } from 'antd';
import { useTranslation } from 'react-i18next';

interface UploadStepsProps {
  current: number;
  /** the upload has its summary: the last step is done */
  finished: boolean;
  /** a step for the exam's information between choosing the files and sending them */
  withExamInfo?: boolean;
}

/** The steps of an upload wizard: files, (exam information,) upload, complete. */
export function UploadSteps({ current, finished, withExamInfo = false }: UploadStepsProps) {
  const { t } = useTranslation();
  return (
    <Steps
      current={current}
      status={finished ? 'finish' : 'process'}
      className="yyp-wizard-steps"
      items={[
        { title: t('upload.stepFiles') },
        ...(withExamInfo ? [{ title: t('upload.stepInfo') }] : []),
        { title: t('upload.stepUpload') },
        { title: t('upload.stepComplete') },
      ]}
    />
  );
}
