import type { ExamDetail, Report } from '@yyp/contracts';
import { Alert, Descriptions } from 'antd';
import { formatStudyTime } from '../../../shared/format/dates';
import { useStudyLabels } from '../../../shared/labels/studyLabels';
import { CoWrittenExams } from './CoWrittenExams';

/** The exam's registration fields and who wrote and approved the report. */
export function InfoTab({ exam, report }: { exam: ExamDetail; report: Report }) {
  const { t, field: f, gender, source, age, personName } = useStudyLabels();
  const person = (p: { name: string } | null) => p?.name ?? t('report.header.none');
  return (
    <div className="yyp-report__stack">
      {exam.masked && <Alert type="info" showIcon title={t('studyList.detail.private')} />}
      <CoWrittenExams examId={exam.id} examIds={report.examIds} />
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={f('patientName')}>{personName(exam.patientName)}</Descriptions.Item>
        <Descriptions.Item label={f('patientId')}>{exam.patientId}</Descriptions.Item>
        <Descriptions.Item label={f('gender')}>{gender(exam.patientGender)}</Descriptions.Item>
        <Descriptions.Item label={f('age')}>{age(exam.age)}</Descriptions.Item>
        <Descriptions.Item label={f('accessionNumber')}>{exam.accessionNumber}</Descriptions.Item>
        <Descriptions.Item label={f('studyTime')}>
          {formatStudyTime(exam.studyDate, exam.studyTime, exam.created)}
        </Descriptions.Item>
        <Descriptions.Item label={t('studyList.col.modality')}>{exam.modality.replace(/\\/g, '/')}</Descriptions.Item>
        <Descriptions.Item label={f('bodyPart')}>{exam.bodyPart}</Descriptions.Item>
        <Descriptions.Item label={f('studyDesc')}>{exam.studyDesc}</Descriptions.Item>
        <Descriptions.Item label={f('organization')}>{exam.bucketName}</Descriptions.Item>
        <Descriptions.Item label={f('source')}>{source(exam.patientSource)}</Descriptions.Item>
        <Descriptions.Item label={f('applyDept')}>{exam.applyDept}</Descriptions.Item>
        {exam.inpatientId ? <Descriptions.Item label={f('inpatientId')}>{exam.inpatientId}</Descriptions.Item> : null}
        {exam.bedNum ? <Descriptions.Item label={f('bedNum')}>{exam.bedNum}</Descriptions.Item> : null}
        {exam.outpatientId ? (
          <Descriptions.Item label={f('outpatientId')}>{exam.outpatientId}</Descriptions.Item>
        ) : null}
        {exam.physicalExamId ? (
          <Descriptions.Item label={f('physicalExamId')}>{exam.physicalExamId}</Descriptions.Item>
        ) : null}
        <Descriptions.Item label={f('orderPlacer')}>{exam.orderPlacer}</Descriptions.Item>
        <Descriptions.Item label={f('scanTech')}>{exam.scanTech}</Descriptions.Item>
        <Descriptions.Item label={f('bodyPartCount')}>{exam.bodyPartCount ?? ''}</Descriptions.Item>
        <Descriptions.Item label={f('clinicImpression')}>{exam.clinicImpression}</Descriptions.Item>
        <Descriptions.Item label={f('institution')}>{exam.institution}</Descriptions.Item>
        <Descriptions.Item label={t('report.header.creator')}>{person(report.creator)}</Descriptions.Item>
        <Descriptions.Item label={t('report.header.approver')}>{person(report.approver)}</Descriptions.Item>
      </Descriptions>
    </div>
  );
}
