import { EditOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { CONSULTATION_MAX, type ConsultationDetail } from '@yyp/contracts';
import { Button, Card, Descriptions, Form, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchMemberCandidates, setConsultationMembers } from '../../api/consultations';
import { FormModal, FormModalActions } from '../../ui/FormModal';
import { useDetailChange } from './useConsultation';

interface MemberValues {
  experts: string[];
  joiners: string[];
}

/** Experts and participants; the target organization names them while open ('setMembers'). */
export function MembersSection({ detail, can }: { detail: ConsultationDetail; can: ReadonlySet<string> }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const experts = detail.members.filter((m) => m.role === 'expert');
  const joiners = detail.members.filter((m) => m.role === 'joiner');
  return (
    <Card
      title={t('consultations.detail.members')}
      extra={
        can.has('setMembers') ? (
          <Button size="small" icon={<EditOutlined />} onClick={() => setEditing(true)}>
            {t('consultations.members.edit')}
          </Button>
        ) : null
      }
    >
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={t('consultations.members.experts')}>
          {experts.length === 0
            ? t('consultations.members.none')
            : experts.map((m) => (
                <Tag key={m.accountId} color="blue">
                  {m.name} · {m.bucketName}
                </Tag>
              ))}
        </Descriptions.Item>
        <Descriptions.Item label={t('consultations.members.joiners')}>
          {joiners.map((m) => (
            <Tag key={m.accountId}>
              {m.name} · {m.bucketName}
            </Tag>
          ))}
        </Descriptions.Item>
      </Descriptions>
      <FormModal open={editing} title={t('consultations.members.edit')} onClose={() => setEditing(false)}>
        <MembersForm detail={detail} onDone={() => setEditing(false)} />
      </FormModal>
    </Card>
  );
}

function MembersForm({ detail, onDone }: { detail: ConsultationDetail; onDone: () => void }) {
  const { t } = useTranslation();
  const { applied, failed } = useDetailChange(detail.id);
  const candidates = useQuery({
    queryKey: ['consultations', 'detail', detail.id, 'candidates'],
    queryFn: ({ signal }) => fetchMemberCandidates(detail.id, signal),
  });
  const save = useMutation({
    mutationFn: (v: MemberValues) =>
      setConsultationMembers(detail.id, { experts: v.experts, joiners: v.joiners, version: detail.version }),
    onSuccess: (d) => {
      onDone();
      applied(d, t('consultations.detail.saved'));
    },
    onError: failed,
  });
  const options = (candidates.data ?? []).map((c) => ({ value: c.accountId, label: c.name }));
  const writers = (candidates.data ?? []).filter((c) => c.canWrite).map((c) => ({ value: c.accountId, label: c.name }));
  return (
    <Form<MemberValues>
      layout="vertical"
      name="consultationMembers"
      initialValues={{
        experts: detail.members.filter((m) => m.role === 'expert').map((m) => m.accountId),
        joiners: detail.members.filter((m) => m.role === 'joiner').map((m) => m.accountId),
      }}
      onFinish={(v) => save.mutate(v)}
    >
      <Form.Item name="experts" label={t('consultations.members.experts')}>
        <Select
          mode="multiple"
          aria-label={t('consultations.members.experts')}
          loading={candidates.isPending}
          optionFilterProp="label"
          maxCount={CONSULTATION_MAX.experts}
          options={writers}
        />
      </Form.Item>
      <Form.Item name="joiners" label={t('consultations.members.joiners')}>
        <Select
          mode="multiple"
          aria-label={t('consultations.members.joiners')}
          loading={candidates.isPending}
          optionFilterProp="label"
          maxCount={CONSULTATION_MAX.joiners}
          options={options}
        />
      </Form.Item>
      <FormModalActions onCancel={onDone} pending={save.isPending} />
    </Form>
  );
}
