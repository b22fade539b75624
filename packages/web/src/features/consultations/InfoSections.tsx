import { useMutation } from '@tanstack/react-query';
import { MAX_NOTE_LENGTH, type ConsultationDetail, type ConsultationVisit } from '@yyp/contracts';
import { Card, DatePicker, Descriptions, Form, Input } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveVisit, updateConsultation } from '../../api/consultations';
import { formatTime } from '../../shared/format/dates';
import { usePersonName } from '../../ui/usePersonName';
import { FeeAmount, FeeStatus } from './ConsultationFee';
import { ConsultationStatusTag } from './consultationLabels';
import { RequestFields, requestBody, requestValuesOf, type RequestValues } from './RequestFields';
import { EditButton, SaveButtons } from './SectionButtons';
import { useDetailChange } from './useConsultation';
import { useFieldLabel } from './useFieldLabel';

/** Patient and request; the requester edits them while open ('update'), at the version read. */
export function RequestSection({ detail, editable }: { detail: ConsultationDetail; editable: boolean }) {
  const { t } = useTranslation();
  const label = useFieldLabel();
  const personName = usePersonName();
  const [editing, setEditing] = useState(false);
  const { applied, failed } = useDetailChange(detail.id);
  const save = useMutation({
    mutationFn: (values: RequestValues) =>
      updateConsultation(detail.id, { ...requestBody(values), version: detail.version }),
    onSuccess: (d) => {
      setEditing(false);
      applied(d, t('consultations.detail.saved'));
    },
    onError: (error) => {
      failed(error);
    },
  });
  const p = detail.patient;
  const gender = p.gender ? t(`consultations.gender.${p.gender}`) : '';
  return (
    <Card
      title={t('consultations.detail.request')}
      extra={editable && !editing ? <EditButton onClick={() => setEditing(true)} /> : null}
    >
      {editing ? (
        <Form<RequestValues>
          layout="vertical"
          name="consultationUpdate"
          initialValues={requestValuesOf(detail)}
          onFinish={(values) => save.mutate(values)}
        >
          <RequestFields />
          <SaveButtons onCancel={() => setEditing(false)} pending={save.isPending} />
        </Form>
      ) : (
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }}>
          <Descriptions.Item label={label('patientName')}>{personName(p.name)}</Descriptions.Item>
          <Descriptions.Item label={label('age')}>{p.age}</Descriptions.Item>
          <Descriptions.Item label={label('gender')}>{gender}</Descriptions.Item>
          <Descriptions.Item label={label('tel')}>{p.tel}</Descriptions.Item>
          <Descriptions.Item label={label('email')}>{p.email}</Descriptions.Item>
          <Descriptions.Item label={label('contactHospital')}>{p.contactHospital}</Descriptions.Item>
          <Descriptions.Item label={label('source')}>{detail.appliedBucketName}</Descriptions.Item>
          <Descriptions.Item label={label('target')}>
            {detail.joinedBuckets.map((b) => b.bucketName).join(', ')}
          </Descriptions.Item>
          <Descriptions.Item label={label('scheduledAt')}>{formatTime(detail.scheduledAt)}</Descriptions.Item>
          <Descriptions.Item label={label('creator')}>{detail.creatorName}</Descriptions.Item>
          <Descriptions.Item label={label('created')}>{formatTime(detail.created)}</Descriptions.Item>
          <Descriptions.Item label={t('consultations.col.status')}>
            <ConsultationStatusTag status={detail.status} />
          </Descriptions.Item>
          <Descriptions.Item label={label('payment')}>
            <FeeStatus fee={detail.fee} />
          </Descriptions.Item>
          {detail.fee && (
            <Descriptions.Item label={label('fee')}>
              <FeeAmount fee={detail.fee} />
            </Descriptions.Item>
          )}
          {detail.fee && <Descriptions.Item label={label('orderNo')}>{detail.fee.orderNo}</Descriptions.Item>}
          <Descriptions.Item label={label('reason')} span="filled">
            <span className="yyp-consultation__text">{detail.reason}</span>
          </Descriptions.Item>
          <Descriptions.Item label={label('clinicImpression')} span="filled">
            <span className="yyp-consultation__text">{detail.clinicImpression}</span>
          </Descriptions.Item>
          <Descriptions.Item label={label('note')} span="filled">
            <span className="yyp-consultation__text">{detail.note}</span>
          </Descriptions.Item>
          {detail.cancelReason && (
            <Descriptions.Item label={label('cancelReason')} span="filled">
              <span className="yyp-consultation__text">{detail.cancelReason}</span>
            </Descriptions.Item>
          )}
        </Descriptions>
      )}
    </Card>
  );
}

interface VisitValues {
  hospital: string;
  time: Dayjs | null;
  department: string;
  reason: string;
}

/** The linked visit record; the requester edits it while open ('visit'). */
export function VisitSection({ detail, editable }: { detail: ConsultationDetail; editable: boolean }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const { applied, failed } = useDetailChange(detail.id);
  const visit = detail.visit;
  const save = useMutation({
    mutationFn: (v: VisitValues) =>
      saveVisit(detail.id, {
        hospital: (v.hospital ?? '').trim(),
        time: v.time ? v.time.format() : null,
        department: (v.department ?? '').trim(),
        reason: (v.reason ?? '').trim(),
      } satisfies ConsultationVisit),
    onSuccess: (d) => {
      setEditing(false);
      applied(d, t('consultations.detail.saved'));
    },
    onError: failed,
  });
  return (
    <Card
      title={t('consultations.detail.visit')}
      extra={editable && !editing ? <EditButton onClick={() => setEditing(true)} /> : null}
    >
      {editing ? (
        <Form<VisitValues>
          layout="vertical"
          name="consultationVisit"
          initialValues={{ ...visit, time: visit.time ? dayjs(visit.time) : null }}
          onFinish={(v) => save.mutate(v)}
        >
          <Form.Item name="hospital" label={t('consultations.visit.hospital')} rules={[{ max: 128 }]}>
            <Input maxLength={128} />
          </Form.Item>
          <Form.Item name="time" label={t('consultations.visit.time')}>
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
          </Form.Item>
          <Form.Item name="department" label={t('consultations.visit.department')} rules={[{ max: 64 }]}>
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item name="reason" label={t('consultations.visit.reason')} rules={[{ max: MAX_NOTE_LENGTH }]}>
            <Input.TextArea rows={2} maxLength={MAX_NOTE_LENGTH} />
          </Form.Item>
          <SaveButtons onCancel={() => setEditing(false)} pending={save.isPending} />
        </Form>
      ) : (
        <Descriptions size="small" column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label={t('consultations.visit.hospital')}>{visit.hospital}</Descriptions.Item>
          <Descriptions.Item label={t('consultations.visit.time')}>{formatTime(visit.time)}</Descriptions.Item>
          <Descriptions.Item label={t('consultations.visit.department')}>{visit.department}</Descriptions.Item>
          <Descriptions.Item label={t('consultations.visit.reason')}>{visit.reason}</Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}
