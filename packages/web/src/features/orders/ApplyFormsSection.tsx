import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApplyForm } from '@yyp/contracts';
import { Button, List, Popconfirm, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { deleteApplyForms, recordApplyForm } from '../../api/orders';
import { fetchUploadPolicy, uploadWithPolicy } from '../../api/policies';
import { useNotify } from '../../shared/notify/useNotify';

/** Upload one apply form: the policy (GET policies/forms checks type and size), the bytes, then the record. */
async function uploadApplyForm(orderId: string, file: File): Promise<ApplyForm[]> {
  const policy = await fetchUploadPolicy('forms', file);
  await uploadWithPolicy(policy, file);
  return recordApplyForm(orderId, { key: policy.key, name: file.name, contentType: file.type || undefined });
}

/**
 * An order's apply forms (request forms: images or PDF; issue 24): links to each, and for holders of
 * upload_apply_forms in the requesting organization upload and delete.
 */
export function ApplyFormsSection({
  orderId,
  forms,
  editable,
}: {
  orderId: string;
  forms: ApplyForm[];
  editable: boolean;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['orders', orderId, 'detail'] });
  const upload = useMutation({
    mutationFn: (file: File) => uploadApplyForm(orderId, file),
    onSuccess: refresh,
    onError: notify.error,
  });
  const remove = useMutation({
    mutationFn: (id: string) => deleteApplyForms(orderId, [id]),
    onSuccess: refresh,
    onError: notify.error,
  });
  return (
    <section>
      <Typography.Title level={5}>{t('orders.detail.applyForms')}</Typography.Title>
      {forms.length === 0 ? (
        <Typography.Text type="secondary">{t('orders.detail.noApplyForms')}</Typography.Text>
      ) : (
        <List
          size="small"
          dataSource={forms}
          renderItem={(f) => (
            <List.Item
              key={f.id}
              actions={
                editable
                  ? [
                      <Popconfirm
                        key="delete"
                        title={t('orders.forms.deleteConfirm')}
                        onConfirm={() => remove.mutate(f.id)}
                      >
                        <Button
                          size="small"
                          type="text"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t('orders.forms.delete')}
                        />
                      </Popconfirm>,
                    ]
                  : []
              }
            >
              {f.url ? (
                <a href={f.url} target="_blank" rel="noreferrer">
                  {f.fileName}
                </a>
              ) : (
                f.fileName
              )}
            </List.Item>
          )}
        />
      )}
      {editable && (
        <Upload
          accept="image/*,application/pdf"
          showUploadList={false}
          customRequest={({ file }) => upload.mutate(file as File)}
        >
          <Button icon={<UploadOutlined />} loading={upload.isPending} style={{ marginTop: 8 }}>
            {t('orders.forms.upload')}
          </Button>
        </Upload>
      )}
    </section>
  );
}
