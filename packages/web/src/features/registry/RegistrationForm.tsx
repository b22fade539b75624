import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MAX_EXAMS_PER_REGISTRATION,
  MAX_NOTE_LENGTH,
  PATIENT_GENDERS,
  PATIENT_SOURCES,
  PET_GENDERS,
  hospitalDate,
  type Registration,
  type RegistryPatient,
} from '@yyp/contracts';
import {
  AutoComplete,
  Button,
  Checkbox,
  Drawer,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Typography,
  type GetRef,
} from 'antd';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errorMessage';
import { createRegistration, queryPatients, updateRegistration } from '../../api/registry';
import { useDomain } from '../../shared/domain/useDomain';
import { useNotify } from '../../shared/notify/useNotify';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { AnimalFields } from './AnimalFields';
import { ScheduledExamExtensions } from './ScheduledExamExtensions';
import {
  createBody,
  emptyExam,
  emptyRegistration,
  patientValues,
  refusedField,
  registrationValues,
  SOURCE_ID_FIELDS,
  updateBody,
  type RegistrationValues,
} from './registrationForm';
import { registryKeys, useProceduresAndDevices } from './useRegistry';

interface RegistrationFormProps {
  bucketId: string;
  /** the registration to edit; absent: a new one */
  editing?: Registration;
  open: boolean;
  onClose: () => void;
}

/**
 * Register a patient (or edit a registration) at the keyboard: focus starts on the name, Enter
 * moves to the next field, Ctrl+Enter registers. Refusals that name a field show on it.
 */
export function RegistrationForm({ bucketId, editing, open, onClose }: RegistrationFormProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<RegistrationValues>();
  const { isPet } = useDomain().domain;
  const source = Form.useWatch('patientSource', form) ?? 'O';
  const arrive = useRef(false);
  const nameField = useRef<GetRef<typeof AutoComplete>>(null);
  const fields = useRef<HTMLDivElement>(null);
  const [arriving, setArriving] = useState(false);
  const today = hospitalDate(new Date());
  const { procedures, devices } = useProceduresAndDevices(open ? bucketId : undefined);
  const [patientSearch, setPatientSearch] = useState('');
  const q = useDebouncedValue(patientSearch.trim(), 250);
  const patients = useQuery({
    queryKey: ['patients', bucketId, q],
    queryFn: ({ signal }) => queryPatients(bucketId, q, signal),
    enabled: open && q.length > 0,
  });

  const save = useMutation({
    mutationFn: (values: RegistrationValues) =>
      editing
        ? updateRegistration(updateBody(editing, values, today))
        : createRegistration(createBody(bucketId, values, arrive.current, today)),
    onSuccess: (registration) => {
      notify.success(
        editing
          ? t('registry.form.updated')
          : t('registry.form.saved', {
              accession: registration.exams.map((e) => e.accessionNumber).join(', '),
            }),
      );
      void queryClient.invalidateQueries({ queryKey: registryKeys.all(bucketId) });
      form.resetFields();
      onClose();
    },
    onError: (error) => {
      const field = refusedField(error);
      // the refused field's name path, as the server gives it (details.field)
      const name = field as Parameters<typeof form.getFieldInstance>[0];
      if (field && form.getFieldInstance(name)) {
        form.setFields([{ name, errors: [errorMessage(t, error)] }]);
        form.scrollToField(name);
      } else {
        notify.error(error);
      }
    },
  });

  function submit(walkIn: boolean) {
    arrive.current = walkIn;
    setArriving(walkIn);
    form.submit();
  }

  /** Enter moves to the next field (not in a text area or an open list); Ctrl+Enter registers. */
  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'Enter') return;
    const target = event.target as HTMLElement;
    if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      submit(false);
      return;
    }
    if (target.tagName === 'TEXTAREA' || target.tagName === 'BUTTON' || target.closest('.ant-select-open')) return;
    if (target.tagName !== 'INPUT') return;
    event.preventDefault();
    const fields = Array.from(
      event.currentTarget.querySelectorAll<HTMLElement>('input:not([disabled]):not([type="hidden"]), textarea'),
    ).filter((el) => el.tabIndex >= 0 && !el.closest('.ant-form-item-hidden'));
    const next = fields[fields.indexOf(target) + 1];
    next?.focus();
  }

  const procedureOptions = (procedures.data ?? []).map((p) => ({
    value: p.id,
    label: `${p.name} (${p.modality})`,
    modality: p.modality,
  }));
  const deviceOptions = (devices.data ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.aeTitle})` }));
  const initial = editing ? registrationValues(editing) : emptyRegistration(new Date(), isPet);
  const ids = SOURCE_ID_FIELDS[source];
  const keepsDate = (examId: string | undefined, date: string) =>
    Boolean(examId) && editing?.exams.some((e) => e.id === examId && e.scheduledDate === date) === true;

  return (
    <Drawer
      title={editing ? t('registry.form.editTitle') : t('registry.form.createTitle')}
      open={open}
      onClose={onClose}
      size="large"
      destroyOnHidden
      afterOpenChange={(opened) => {
        // The name, unless the registrar is already typing in the form (a scanner, a fast hand):
        // taking the focus back when the drawer's motion ends would drop what they were choosing.
        if (opened && !fields.current?.contains(document.activeElement)) nameField.current?.focus();
      }}
      footer={
        <Space>
          <Button type="primary" loading={save.isPending && !arriving} onClick={() => submit(false)}>
            {editing ? t('registry.form.save') : t('registry.form.submit')}
          </Button>
          {!editing && (
            <Button loading={save.isPending && arriving} onClick={() => submit(true)}>
              {t('registry.form.submitArrive')}
            </Button>
          )}
          <Typography.Text type="secondary">{t('registry.form.keys')}</Typography.Text>
        </Space>
      }
    >
      <div ref={fields} onKeyDown={handleKeyDown}>
        <Form<RegistrationValues>
          form={form}
          layout="vertical"
          initialValues={initial}
          onFinish={(values) => save.mutate(values)}
          className="yyp-registry-form"
        >
          <Typography.Title level={5}>{t('registry.form.patient')}</Typography.Title>
          <Form.Item name={['patient', 'id']} hidden>
            <Input />
          </Form.Item>
          <div className="yyp-registry-form__grid">
            <Form.Item
              label={t('registry.form.name')}
              name={['patient', 'name']}
              rules={[{ required: true, whitespace: true, message: t('registry.form.nameRequired') }]}
            >
              <AutoComplete
                ref={nameField}
                autoFocus
                // a new patient's name typed and Enter pressed must not pick the first one found
                defaultActiveFirstOption={false}
                maxLength={64}
                options={(patients.data?.patients ?? []).map((p) => ({
                  key: p.id,
                  value: p.name,
                  label: `${p.name} · ${p.patientId}${p.phone ? ` · ${p.phone}` : ''}`,
                  patient: p,
                }))}
                onSearch={setPatientSearch}
                onSelect={(_: string, option: { patient: RegistryPatient }) =>
                  form.setFieldsValue({ patient: patientValues(option.patient) })
                }
              />
            </Form.Item>
            <Form.Item label={t('registry.form.gender')} name={['patient', 'gender']}>
              <Select
                options={(isPet ? PET_GENDERS : PATIENT_GENDERS).map((g) => ({
                  value: g,
                  label: t(`registry.form.genders.${g}`),
                }))}
              />
            </Form.Item>
            <Form.Item
              label={t('registry.form.birthDate')}
              name={['patient', 'birthDate']}
              rules={[{ pattern: /^(\d{8})?$/, message: t('registry.form.birthDateFormat') }]}
            >
              <Input placeholder="YYYYMMDD" maxLength={8} />
            </Form.Item>
            <Form.Item label={t('registry.form.age')} name={['patient', 'age']}>
              <InputNumber min={0} max={150} />
            </Form.Item>
            <Form.Item label={t('registry.form.phone')} name={['patient', 'phone']}>
              <Input maxLength={20} />
            </Form.Item>
            <Form.Item label={t('registry.form.patientId')} name={['patient', 'patientId']}>
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item label={t('registry.form.idCard')} name={['patient', 'idCard']}>
              <Input maxLength={32} />
            </Form.Item>
            <Form.Item label={t('registry.form.address')} name={['patient', 'address']}>
              <Input maxLength={256} />
            </Form.Item>
          </div>
          {isPet && <AnimalFields />}
          <div className="yyp-registry-form__grid">
            <Form.Item label={t('registry.form.patientSource')} name="patientSource">
              <Select options={PATIENT_SOURCES.map((s) => ({ value: s, label: t(`registry.form.sources.${s}`) }))} />
            </Form.Item>
            {ids.map((field) => (
              <Form.Item key={field} label={t(`registry.form.${field as 'inpatientId'}`)} name={field}>
                <Input maxLength={64} />
              </Form.Item>
            ))}
            <Form.Item label={t('registry.form.applyDept')} name="applyDept">
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item label={t('registry.form.orderPlacer')} name="orderPlacer">
              <Input maxLength={64} />
            </Form.Item>
          </div>
          <Form.Item label={t('registry.form.clinicImpression')} name="clinicImpression">
            <Input.TextArea maxLength={1024} autoSize={{ minRows: 1, maxRows: 4 }} />
          </Form.Item>
          <Space align="start" wrap>
            <Form.Item label={t('registry.form.weight')} name="weight">
              <InputNumber min={0.1} max={500} />
            </Form.Item>
            <Form.Item label={t('registry.form.height')} name="height">
              <InputNumber min={10} max={300} />
            </Form.Item>
            <Form.Item name="urgent" valuePropName="checked">
              <Checkbox>{t('registry.form.urgent')}</Checkbox>
            </Form.Item>
          </Space>
          <Form.Item label={t('registry.form.note')} name="note">
            <Input maxLength={MAX_NOTE_LENGTH} showCount />
          </Form.Item>

          <Typography.Title level={5}>{t('registry.form.exams')}</Typography.Title>
          {procedures.isError && <Typography.Text type="warning">{t('registry.form.noProcedures')}</Typography.Text>}
          <Form.List name="exams">
            {(rows, { add, remove }) => (
              <>
                {rows.map((row) => (
                  <div key={row.key} className="yyp-registry-form__exam" data-testid="registry-exam-row">
                    <Form.Item name={[row.name, 'id']} hidden>
                      <Input />
                    </Form.Item>
                    {!procedures.isError && (
                      <Form.Item label={t('registry.form.procedure')} name={[row.name, 'procedureId']}>
                        <Select
                          allowClear
                          showSearch={{ optionFilterProp: 'label' }}
                          options={procedureOptions}
                          onChange={(_, option) => {
                            const picked = Array.isArray(option) ? undefined : option;
                            if (picked) form.setFieldValue(['exams', row.name, 'modality'], picked.modality);
                          }}
                        />
                      </Form.Item>
                    )}
                    <Form.Item
                      label={t('registry.form.modality')}
                      name={[row.name, 'modality']}
                      dependencies={[['exams', row.name, 'procedureId']]}
                      rules={[
                        {
                          validator: (_, value: string) =>
                            value?.trim() || form.getFieldValue(['exams', row.name, 'procedureId'])
                              ? Promise.resolve()
                              : Promise.reject(new Error(t('registry.form.modalityRequired'))),
                        },
                      ]}
                    >
                      <Input maxLength={16} />
                    </Form.Item>
                    <Form.Item label={t('registry.form.bodyPart')} name={[row.name, 'bodyPart']}>
                      <Input maxLength={64} />
                    </Form.Item>
                    <Form.Item
                      label={t('registry.form.scheduledDate')}
                      name={[row.name, 'scheduledDate']}
                      rules={[
                        {
                          // not before today, unless an edited exam keeps the date it had (spec 000 §5)
                          validator: (_, value: string) =>
                            value >= today || keepsDate(form.getFieldValue(['exams', row.name, 'id']), value)
                              ? Promise.resolve()
                              : Promise.reject(new Error(t('registry.form.dateBeforeToday'))),
                        },
                      ]}
                    >
                      <Input type="date" min={today} />
                    </Form.Item>
                    <Form.Item label={t('registry.form.scheduledTime')} name={[row.name, 'scheduledTime']}>
                      <Input type="time" />
                    </Form.Item>
                    {!devices.isError && (
                      <Form.Item label={t('registry.form.device')} name={[row.name, 'deviceId']}>
                        <Select allowClear options={deviceOptions} />
                      </Form.Item>
                    )}
                    <ScheduledExamExtensions
                      exam={editing?.exams.find((e) => e.id === form.getFieldValue(['exams', row.name, 'id']))}
                    />
                    {rows.length > 1 && (
                      <Button type="link" danger onClick={() => remove(row.name)}>
                        {t('registry.form.removeExam')}
                      </Button>
                    )}
                  </div>
                ))}
                {rows.length < MAX_EXAMS_PER_REGISTRATION && (
                  <Button onClick={() => add(emptyExam())}>{t('registry.form.addExam')}</Button>
                )}
              </>
            )}
          </Form.List>
        </Form>
      </div>
    </Drawer>
  );
}
