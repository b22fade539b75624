import type { ReportConflictDetails, ReportContent } from '@yyp/contracts';
import { Button, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

interface ConflictDialogProps {
  conflict: ReportConflictDetails | null;
  /** the text on screen now: what was refused, plus anything typed since */
  mine: ReportContent | null;
  onResolve: (choice: 'mine' | 'theirs') => void;
}

/**
 * A save lost a race (409 ReportVersionConflict): both texts side by side, nothing dropped. Keep
 * mine saves the screen's text over the newest version; take theirs loads the server's.
 */
export function ConflictDialog({ conflict, mine, onResolve }: ConflictDialogProps) {
  const { t } = useTranslation();
  const own = mine ?? conflict?.rejected;
  return (
    <Modal
      open={conflict !== null}
      title={t('report.conflict.title')}
      width={900}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      footer={[
        <Button key="theirs" onClick={() => onResolve('theirs')}>
          {t('report.conflict.takeTheirs')}
        </Button>,
        <Button key="mine" type="primary" onClick={() => onResolve('mine')}>
          {t('report.conflict.keepMine')}
        </Button>,
      ]}
    >
      {conflict && own && (
        <>
          <Typography.Paragraph>
            {t('report.conflict.intro', { name: conflict.lastUpdater?.name ?? t('report.conflict.someone') })}
          </Typography.Paragraph>
          <div className="yyp-report__conflict">
            <ContentColumn title={t('report.conflict.theirs')} content={conflict.current} testId="conflict-theirs" />
            <ContentColumn title={t('report.conflict.mine')} content={own} testId="conflict-mine" />
          </div>
        </>
      )}
    </Modal>
  );
}

function ContentColumn({ title, content, testId }: { title: string; content: ReportContent; testId: string }) {
  const { t } = useTranslation();
  return (
    <section data-testid={testId}>
      <Typography.Title level={5}>{title}</Typography.Title>
      <Typography.Text type="secondary">{t('report.fields.findings')}</Typography.Text>
      <pre className="yyp-report__pre">{content.findings}</pre>
      <Typography.Text type="secondary">{t('report.fields.conclusion')}</Typography.Text>
      <pre className="yyp-report__pre">{content.conclusion}</pre>
    </section>
  );
}
