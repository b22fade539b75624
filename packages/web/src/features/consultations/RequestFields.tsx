import { MAX_NOTE_LENGTH, type ConsultationDetail, type ConsultationPatient } from '@yyp/contracts';
import { Col, DatePicker, Form, Input, Row, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { requiredRule } from '../../shared/forms/formRules';
import { useFieldLabel } from './useFieldLabel';

/** The requester's fields of a consultation, shared by the request form and the detail's edit. */
export interface RequestValues {
  title: string;
  patient: ConsultationPatient;
  scheduledAt: Dayjs | null;
  reason: string;
  note: string;
  clinicImpression: string;
}

export const EMPTY_PATIENT: ConsultationPatient = {
  name: '',
  age: '',
  gender: '',
  tel: '',
  email: '',
  contactHospital: '',
};

export function requestValuesOf(detail: ConsultationDetail): RequestValues {
  return {
    title: detail.title,
    patient: detail.patient,
    scheduledAt: detail.scheduledAt ? dayjs(detail.scheduledAt) : null,
    reason: detail.reason,
    note: detail.note,
    clinicImpression: detail.clinicImpression,
  };
}

/** The values as the calls' fields (trimmed; the time as ISO 8601 with its offset). */
export function requestBody(values: RequestValues) {
  const patient = values.patient;
  return {
    title: values.title.trim(),
    patient: {
      name: patient.name.trim(),
      age: (patient.age ?? '').trim(),
      gender: patient.gender ?? '',
      tel: (patient.tel ?? '').trim(),
      email: (patient.email ?? '').trim(),
      contactHospital: (patient.contactHospital ?? '').trim(),
    },
    scheduledAt: (values.scheduledAt ?? dayjs()).format(),
    reason: values.reason.trim(),
    note: (values.note ?? '').trim(),
    clinicImpression: (values.clinicImpression ?? '').trim(),
  };
}

export function RequestFields() {
  const { t } = useTranslation();
  const label = useFieldLabel();
  return (
    <>
      <Form.Item name="title" label={label('title')} rules={[requiredRule(t, label('title')), { max: 128 }]}>
        <Input maxLength={128} />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item
            name={['patient', 'name']}
            label={label('patientName')}
            rules={[requiredRule(t, label('patientName')), { max: 64 }]}
          >
            <Input maxLength={64} />
          </Form.Item>
        </Col>
        <Col xs={12} md={4}>
          <Form.Item name={['patient', 'age']} label={label('age')} rules={[{ max: 16 }]}>
            <Input maxLength={16} />
          </Form.Item>
        </Col>
        <Col xs={12} md={4}>
          <Form.Item name={['patient', 'gender']} label={label('gender')}>
            <Select
              aria-label={label('gender')}
              options={[
                { value: 'M', label: t('consultations.gender.M') },
                { value: 'F', label: t('consultations.gender.F') },
                { value: 'O', label: t('consultations.gender.O') },
                { value: '', label: t('consultations.gender.unknown') },
              ]}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name={['patient', 'tel']}
            label={label('tel')}
            rules={[{ pattern: /^[0-9+\-() ]{0,32}$/, message: t('consultations.invalidTel') }]}
          >
            <Input maxLength={32} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name={['patient', 'email']}
            label={label('email')}
            rules={[{ type: 'email', message: t('consultations.invalidEmail') }, { max: 128 }]}
          >
            <Input maxLength={128} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name={['patient', 'contactHospital']} label={label('contactHospital')} rules={[{ max: 128 }]}>
            <Input maxLength={128} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="scheduledAt"
        label={label('scheduledAt')}
        rules={[{ required: true, message: t('common.required', { field: label('scheduledAt') }) }]}
      >
        <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" aria-label={label('scheduledAt')} />
      </Form.Item>
      <Form.Item
        name="reason"
        label={label('reason')}
        rules={[requiredRule(t, label('reason')), { max: MAX_NOTE_LENGTH }]}
      >
        <Input.TextArea rows={3} maxLength={MAX_NOTE_LENGTH} showCount />
      </Form.Item>
      <Form.Item name="clinicImpression" label={label('clinicImpression')} rules={[{ max: 2000 }]}>
        <Input.TextArea rows={3} maxLength={2000} />
      </Form.Item>
      <Form.Item name="note" label={label('note')} rules={[{ max: MAX_NOTE_LENGTH }]}>
        <Input.TextArea rows={2} maxLength={MAX_NOTE_LENGTH} />
      </Form.Item>
    </>
  );
}
