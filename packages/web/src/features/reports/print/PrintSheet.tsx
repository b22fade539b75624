import type { PrintReport, PrintView } from '@yyp/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudyLabels } from '../../../shared/labels/studyLabels';
import type { reportPrintEn } from '../../../i18n/reportPrint/en';
import { formatStudyDate, formatTime } from '../../../shared/format/dates';
import { PrintSampleGraph } from './PrintSampleGraph';
import { usePersonName } from '../../../ui/usePersonName';

type SheetKey = Exclude<keyof typeof reportPrintEn.reportPrint.sheet, 'keyImage'>;

/**
 * The print view laid out as a hospital's paper report, one sheet per report: header with logo
 * and hospital name, patient and exam, key images in the chosen number of columns, findings,
 * impression, signatures with the stamp, and the footer. Every text is rendered as text (React
 * escapes it): markup written in a report prints as the characters typed.
 */
export function PrintSheet({ view }: { view: PrintView }) {
  return (
    <div className="yyp-print__sheets">
      {view.reports.map((report) => (
        <ReportSheet key={report.reportId} view={view} report={report} />
      ))}
    </div>
  );
}

function ReportSheet({ view, report }: { view: PrintView; report: PrintReport }) {
  const { t } = useTranslation();
  const personName = usePersonName();
  const { gender, age } = useStudyLabels();
  const { template } = view;
  const e = report.exam;
  const s = (key: SheetKey): string => t(`reportPrint.sheet.${key}`);
  const optional: [SheetKey, string][] = (
    [
      ['applyDept', e.applyDept],
      ['bedNum', e.bedNum],
      ['inpatientId', e.inpatientId],
      ['outpatientId', e.outpatientId],
      ['studyDesc', e.studyDesc],
    ] as [SheetKey, string][]
  ).filter(([, value]) => value.trim() !== '');

  return (
    <article className="yyp-print-sheet" data-report-id={report.reportId} aria-label={template.hospitalName}>
      <header className="yyp-print-sheet__head">
        {template.logoUrl ? <img className="yyp-print-sheet__logo" src={template.logoUrl} alt="" /> : <span />}
        <div className="yyp-print-sheet__titles">
          <h1 className="yyp-print-sheet__hospital">{template.hospitalName}</h1>
          <h2 className="yyp-print-sheet__title">{template.title || s('defaultTitle')}</h2>
        </div>
        <span />
      </header>

      <dl className="yyp-print-sheet__facts">
        <Fact label={s('name')}>{personName(e.patientName)}</Fact>
        <Fact label={s('gender')}>{gender(e.patientGender)}</Fact>
        <Fact label={s('age')}>{e.age ? age(e.age) : ''}</Fact>
        <Fact label={s('patientId')}>{e.patientId}</Fact>
        <Fact label={s('accessionNumber')}>{e.accessionNumber}</Fact>
        <Fact label={s('studyDate')}>{formatStudyDate(e.studyDate)}</Fact>
        <Fact label={s('modality')}>{e.modality}</Fact>
        <Fact label={s('bodyPart')}>{e.bodyPart}</Fact>
        {optional.map(([key, value]) => (
          <Fact key={key} label={s(key)}>
            {value}
          </Fact>
        ))}
        {e.clinicImpression.trim() && (
          <Fact label={s('clinicImpression')} wide>
            {e.clinicImpression}
          </Fact>
        )}
      </dl>
      {e.urgent && <div className="yyp-print-sheet__urgent">{s('urgent')}</div>}
      {!report.approved && <div className="yyp-print-sheet__draft">{s('notApproved')}</div>}

      {report.images.length > 0 && (
        <div
          className="yyp-print-sheet__images"
          style={{ gridTemplateColumns: `repeat(${view.imageColumns}, minmax(0, 1fr))` }}
        >
          {report.images.map((image) => (
            <figure key={image.id} className="yyp-print-sheet__image">
              <img src={image.url} alt={image.desc || t('reportPrint.sheet.keyImage', { index: image.index + 1 })} />
              {image.desc && <figcaption>{image.desc}</figcaption>}
            </figure>
          ))}
        </div>
      )}

      {report.sampleGraphs.length > 0 && (
        <div className="yyp-print-sheet__graphs">
          {report.sampleGraphs.map((graph) => (
            <PrintSampleGraph key={graph.id} graph={graph} />
          ))}
        </div>
      )}

      <section className="yyp-print-sheet__section">
        <h3>{s('findings')}</h3>
        <p className="yyp-print-sheet__text">{report.findings || '—'}</p>
      </section>
      <section className="yyp-print-sheet__section">
        <h3>{s('conclusion')}</h3>
        <p className="yyp-print-sheet__text">{report.conclusion || '—'}</p>
      </section>
      {(report.positive !== null || report.attributes.length > 0) && (
        <dl className="yyp-print-sheet__extra">
          {report.positive !== null && (
            <Fact label={s('positive')}>{report.positive ? s('positiveYes') : s('positiveNo')}</Fact>
          )}
          {report.attributes.map((a) => (
            <Fact key={a.key} label={a.label} wide>
              {a.value}
            </Fact>
          ))}
        </dl>
      )}

      <footer className="yyp-print-sheet__sign">
        <Signer label={s('writer')} who={report.writer} pictures={template.showSignatures} />
        <div className="yyp-print-sheet__approver">
          <Signer label={s('approver')} who={report.approver} pictures={template.showSignatures} />
          {report.approved && template.stampUrl && (
            <img className="yyp-print-sheet__stamp" src={template.stampUrl} alt="" />
          )}
        </div>
        <div className="yyp-print-sheet__signer">
          <span>{s('reportTime')}:</span>
          <span>{formatTime(report.approvedAt ?? report.submittedAt)}</span>
        </div>
      </footer>
      {template.footerText && <div className="yyp-print-sheet__footer">{template.footerText}</div>}
    </article>
  );
}

function Fact({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={`yyp-print-sheet__fact${wide ? ' yyp-print-sheet__fact--wide' : ''}`}>
      <dt>{label}:</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Signer({ label, who, pictures }: { label: string; who: PrintReport['writer']; pictures: boolean }) {
  return (
    <div className="yyp-print-sheet__signer">
      <span>{label}:</span>
      {who && pictures && who.signatureUrl ? (
        <img className="yyp-print-sheet__signature" src={who.signatureUrl} alt={who.name} />
      ) : (
        <span>{who?.name ?? ''}</span>
      )}
    </div>
  );
}
