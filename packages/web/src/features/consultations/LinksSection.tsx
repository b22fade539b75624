import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ConsultationDetail, ConsultationLink, ConsultationListItem } from '@yyp/contracts';
import { App, Button, Card, Input, List, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { addConsultationLink, fetchPastConsultations, removeConsultationLink } from '../../api/consultations';
import { formatTime } from '../../shared/format/dates';
import { usePersonName } from '../../ui/usePersonName';
import { ConsultationStatusTag } from './consultationLabels';
import { useDetailChange } from './useConsultation';

/**
 * Linked history consultations (only finished ones, spec 000 §4); each opens read-only at
 * /consultations/{id}/related/{linkId}. The requester links ('link') and unlinks ('unlink') them.
 */
export function LinksSection({
  detail,
  can,
  readOnly,
}: {
  detail: ConsultationDetail;
  can: ReadonlySet<string>;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const personName = usePersonName();
  const { applied, failed } = useDetailChange(detail.id);
  const [adding, setAdding] = useState(false);
  const remove = useMutation({
    mutationFn: (linkId: string) => removeConsultationLink(detail.id, linkId),
    onSuccess: (d) => applied(d),
    onError: failed,
  });
  return (
    <Card
      title={t('consultations.detail.links')}
      extra={
        can.has('link') ? (
          <Button size="small" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            {t('consultations.links.add')}
          </Button>
        ) : null
      }
    >
      <List<ConsultationLink>
        size="small"
        dataSource={detail.links}
        locale={{ emptyText: t('consultations.detail.empty') }}
        renderItem={(link) => (
          <List.Item
            actions={[
              !readOnly && (
                <Link
                  key="open"
                  to={`/consultations/${encodeURIComponent(detail.id)}/related/${encodeURIComponent(link.id)}`}
                >
                  {t('consultations.links.open')}
                </Link>
              ),
              can.has('unlink') && (
                <Button
                  key="remove"
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`${t('consultations.links.remove')} ${link.title}`}
                  onClick={() =>
                    modal.confirm({
                      title: t('consultations.links.remove'),
                      content: link.title,
                      onOk: () => remove.mutateAsync(link.id),
                    })
                  }
                />
              ),
            ].filter(Boolean)}
          >
            <List.Item.Meta
              title={
                <>
                  {link.title} <ConsultationStatusTag status={link.status} />
                </>
              }
              description={
                <>
                  {`${personName(link.patientName)} · ${formatTime(link.scheduledAt)}`}
                  {/* the conclusion's first line under it: the list sits in a narrow column */}
                  {link.result && (
                    <Typography.Paragraph type="secondary" ellipsis={{ rows: 1 }} style={{ margin: 0 }}>
                      {link.result}
                    </Typography.Paragraph>
                  )}
                </>
              }
            />
          </List.Item>
        )}
      />
      {adding && (
        <PastDialog
          detail={detail}
          onClose={() => setAdding(false)}
          onPick={(item) =>
            addConsultationLink(detail.id, item.id).then((d) => {
              setAdding(false);
              applied(d);
            }, failed)
          }
        />
      )}
    </Card>
  );
}

function PastDialog(props: {
  detail: ConsultationDetail;
  onClose: () => void;
  onPick: (item: ConsultationListItem) => Promise<void>;
}) {
  const { t } = useTranslation();
  const personName = usePersonName();
  const [keyword, setKeyword] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const linked = new Set([props.detail.id, ...props.detail.links.map((l) => l.linkedId)]);
  const past = useQuery({
    queryKey: ['consultations', 'past', props.detail.id, keyword],
    queryFn: ({ signal }) => fetchPastConsultations(props.detail.id, keyword, signal),
  });
  return (
    <Modal open width={720} title={t('consultations.links.pickTitle')} onCancel={props.onClose} footer={null}>
      <Input.Search
        allowClear
        aria-label={t('consultations.links.search')}
        placeholder={t('consultations.links.search')}
        onSearch={setKeyword}
        style={{ marginBottom: 12 }}
      />
      <List<ConsultationListItem>
        size="small"
        loading={past.isFetching}
        dataSource={(past.data ?? []).filter((c) => !linked.has(c.id))}
        locale={{ emptyText: t('consultations.links.none') }}
        renderItem={(item) => (
          <List.Item
            actions={[
              <Button
                key="link"
                size="small"
                loading={busy === item.id}
                onClick={() => {
                  setBusy(item.id);
                  void props.onPick(item).finally(() => setBusy(null));
                }}
              >
                {t('consultations.links.add')}
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={item.title}
              description={`${personName(item.patientName)} · ${item.appliedBucketName} · ${formatTime(item.scheduledAt)}`}
            />
          </List.Item>
        )}
      />
    </Modal>
  );
}
