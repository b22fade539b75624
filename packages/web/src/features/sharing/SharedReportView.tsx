import type { SharedReport } from '@yyp/contracts';
import { Alert } from 'antd';
import type { ReactNode } from 'react';
import { useStudyLabels } from '../../shared/labels/studyLabels';
import { formatStudyDate, formatTime } from '../../shared/format/dates';

/**
 * A shared report laid out as the hospital's printed report: organization and title, patient and
 * exam, findings, impression, key images, signatures. A superseded report says so first; a
 * withdrawn one shows no text at all (the server sends none).
 */
export function SharedReportView({ view }: { view: SharedReport }) {
  const { t, gender, age, source, personName } = useStudyLabels();
  const { exam, report } = view;

  return (
    <article className="yyp-shared-report" aria-labelledby="shared-report-title">
      <header className="yyp-shared-report__head">
        <div className="yyp-shared-report__org">{view.organizationName}</div>
        <h1 id="shared-report-title" className="yyp-shared-report__title">
          {t('sharing.page.title')}
        </h1>
      </header>

      {view.state === 'updated' && (
        <Alert
          className="yyp-shared-report__notice"
          type="info"
          showIcon
          title={t('sharing.page.updatedTitle')}
          description={t('sharing.page.updatedText', { time: formatTime(view.supersededAt) })}
          data-testid="shared-updated"
        />
      )}
      {view.state === 'withdrawn' && (
        <Alert
          className="yyp-shared-report__notice"
          type="warning"
          showIcon
          title={t('sharing.page.withdrawnTitle')}
          description={t('sharing.page.withdrawnText', { time: formatTime(view.supersededAt) })}
          data-testid="shared-withdrawn"
        />
      )}

      <dl className="yyp-shared-report__facts">
        <Fact label={t('sharing.page.name')}>{personName(view.patientName)}</Fact>
        <Fact label={t('sharing.page.sex')}>{gender(view.patientSex)}</Fact>
        <Fact label={t('sharing.page.age')}>{view.patientAge ? age(view.patientAge) : ''}</Fact>
        <Fact label={t('sharing.page.studyDate')}>{formatStudyDate(exam.studyDate)}</Fact>
        <Fact label={t('sharing.page.modality')}>{exam.modality}</Fact>
        <Fact label={t('sharing.page.bodyPart')}>{exam.bodyPart}</Fact>
        <Fact label={t('sharing.page.accession')}>{exam.accessionNumber}</Fact>
        <Fact label={t('sharing.page.study')} wide>
          {exam.studyDescription}
        </Fact>
        {exam.extra && (
          <>
            <Fact label={t('sharing.page.applyDept')}>{exam.extra.applyDept}</Fact>
            <Fact label={t('sharing.page.physician')}>{exam.extra.physician}</Fact>
            <Fact label={t('sharing.page.source')}>{source(exam.extra.patientSource)}</Fact>
            <Fact label={t('sharing.page.clinicImpression')} wide>
              {exam.extra.clinicImpression}
            </Fact>
          </>
        )}
      </dl>

      {report && (
        <>
          <section className="yyp-shared-report__section">
            <h2>{t('sharing.page.findings')}</h2>
            <p className="yyp-shared-report__text" data-testid="shared-findings">
              {report.findings}
            </p>
          </section>
          <section className="yyp-shared-report__section">
            <h2>{t('sharing.page.conclusion')}</h2>
            <p className="yyp-shared-report__text yyp-shared-report__text--strong" data-testid="shared-conclusion">
              {report.conclusion}
            </p>
          </section>
        </>
      )}

      {view.images.length > 0 && (
        <section className="yyp-shared-report__section">
          <h2>{t('sharing.page.keyImages')}</h2>
          <div className="yyp-shared-report__images">
            {view.images.map((image) => (
              <figure key={image.id} className="yyp-shared-report__image">
                <img src={image.url} alt={image.desc || t('sharing.page.keyImages')} loading="lazy" />
                {image.desc && <figcaption>{image.desc}</figcaption>}
              </figure>
            ))}
          </div>
        </section>
      )}

      {report && (
        <footer className="yyp-shared-report__signatures">
          <Signature label={t('sharing.page.reporter')} value={report.reporter} />
          <Signature label={t('sharing.page.approver')} value={report.approver} />
          <Signature label={t('sharing.page.approvedAt')} value={formatTime(report.approvedAt)} />
        </footer>
      )}
      <p className="yyp-shared-report__disclaimer">{t('sharing.page.disclaimer')}</p>
    </article>
  );
}

function Fact({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'yyp-shared-report__fact yyp-shared-report__fact--wide' : 'yyp-shared-report__fact'}>
      <dt>{label}</dt>
      <dd>{children || '—'}</dd>
    </div>
  );
}

function Signature({ label, value }: { label: string; value: string }) {
  return (
    <span className="yyp-shared-report__signature">
      <span className="yyp-shared-report__signature-label">{label}</span>
      <strong>{value || '—'}</strong>
    </span>
  );
}
