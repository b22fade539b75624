import { UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  LEARNING_DESCRIPTION_MAX,
  LEARNING_TITLE_MAX,
  LEARNING_VIDEO_MAX_BYTES,
  LEARNING_VIDEO_TYPES,
  type Learning,
} from '@yyp/contracts';
import {
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
  Upload,
  type TableColumnsType,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { deleteLearning, fetchLearnings, updateLearning, uploadLearning } from '../../api/learnings';
import { useNotify } from '../../shared/notify/useNotify';
import { formatBytes } from '../../ui/formatBytes';
import { FormModal, FormModalActions } from '../../ui/FormModal';

/** The platform admin sees every video (published or not); a page is plenty for a training library. */
const ADMIN_PAGE = { skip: 0, limit: 100 };
const LIST_KEY = ['learnings', 'admin'] as const;

interface UploadValues {
  title: string;
  description?: string;
  sortOrder?: number;
  published?: boolean;
}

interface EditValues {
  title: string;
  description: string;
  sortOrder: number;
  published: boolean;
  durationSeconds: number | null;
}

/**
 * The platform admin's "Learning videos" tab (issue 27): upload an MP4 or WebM video (the server
 * checks its bytes and size), edit its title, description, order and publication, delete it.
 */
export function LearningVideosTab() {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<UploadValues>();
  const [file, setFile] = useState<File | null>(null);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  const [editing, setEditing] = useState<Learning | null>(null);
  const list = useQuery({ queryKey: LIST_KEY, queryFn: ({ signal }) => fetchLearnings(ADMIN_PAGE, signal) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['learnings'] });
  const upload = useMutation({
    mutationFn: (values: UploadValues) =>
      uploadLearning(file!, {
        title: values.title.trim(),
        description: values.description?.trim() ?? '',
        published: values.published ?? false,
        sortOrder: values.sortOrder ?? 0,
      }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: deleteLearning, onSettled: refresh });
  const maxSize = formatBytes(LEARNING_VIDEO_MAX_BYTES);

  function chooseFile(chosen: File): false {
    if (!(LEARNING_VIDEO_TYPES as readonly string[]).includes(chosen.type)) {
      setFile(null);
      setFileProblem(t('learningAdmin.wrongType'));
    } else if (chosen.size > LEARNING_VIDEO_MAX_BYTES) {
      setFile(null);
      setFileProblem(t('learningAdmin.tooLarge', { size: maxSize }));
    } else {
      setFile(chosen);
      setFileProblem(null);
      if (!form.getFieldValue('title')) {
        form.setFieldValue('title', chosen.name.replace(/\.[^.]+$/, '').slice(0, LEARNING_TITLE_MAX));
      }
    }
    return false;
  }

  async function handleUpload(values: UploadValues) {
    if (!file) {
      setFileProblem(t('learningAdmin.fileRequired'));
      return;
    }
    try {
      await upload.mutateAsync(values);
      notify.success(t('learningAdmin.uploaded'));
      form.resetFields();
      setFile(null);
    } catch (error) {
      notify.error(error);
    }
  }

  async function handleDelete(item: Learning) {
    try {
      await remove.mutateAsync(item.id);
      notify.success(t('learningAdmin.deleted'));
    } catch (error) {
      notify.error(error);
    }
  }

  const columns: TableColumnsType<Learning> = [
    {
      key: 'title',
      title: t('learningAdmin.columnTitle'),
      render: (_, item) => <Link to={`/learning/${item.id}`}>{item.title}</Link>,
    },
    { key: 'type', title: t('learningAdmin.columnType'), render: (_, item) => item.contentType },
    { key: 'size', title: t('learningAdmin.columnSize'), align: 'right', render: (_, item) => formatBytes(item.size) },
    { key: 'order', title: t('learningAdmin.columnOrder'), align: 'right', render: (_, item) => item.sortOrder },
    {
      key: 'status',
      title: t('learningAdmin.columnStatus'),
      render: (_, item) =>
        item.published ? (
          <Tag color="green">{t('learningAdmin.published')}</Tag>
        ) : (
          <Tag color="orange">{t('learning.draft')}</Tag>
        ),
    },
    {
      key: 'created',
      title: t('learningAdmin.columnCreated'),
      render: (_, item) => dayjs(item.createdAt).format('YYYY-MM-DD HH:mm'),
    },
    {
      key: 'actions',
      title: '',
      render: (_, item) => (
        <Space>
          <Button size="small" onClick={() => setEditing(item)}>
            {t('learningAdmin.edit')}
          </Button>
          <Popconfirm
            title={t('learningAdmin.deleteConfirm', { title: item.title })}
            onConfirm={() => handleDelete(item)}
            okButtonProps={{ danger: true }}
          >
            <Button size="small" danger>
              {t('learningAdmin.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size={24} style={{ width: '100%' }}>
      <Card variant="borderless" title={t('learningAdmin.upload')}>
        <Typography.Paragraph type="secondary">{t('learningAdmin.uploadHint', { size: maxSize })}</Typography.Paragraph>
        <Form<UploadValues>
          form={form}
          layout="vertical"
          onFinish={handleUpload}
          initialValues={{ sortOrder: 0, published: true }}
        >
          <Form.Item
            label={t('learningAdmin.file')}
            validateStatus={fileProblem ? 'error' : undefined}
            help={fileProblem ?? file?.name}
          >
            <Upload
              accept={LEARNING_VIDEO_TYPES.join(',')}
              beforeUpload={chooseFile}
              showUploadList={false}
              maxCount={1}
            >
              <Button icon={<UploadOutlined />}>{t('learningAdmin.chooseFile')}</Button>
            </Upload>
          </Form.Item>
          <Form.Item
            name="title"
            label={t('learningAdmin.titleLabel')}
            rules={[
              { required: true, whitespace: true, max: LEARNING_TITLE_MAX, message: t('learningAdmin.titleRequired') },
            ]}
          >
            <Input maxLength={LEARNING_TITLE_MAX} />
          </Form.Item>
          <Form.Item name="description" label={t('learningAdmin.descriptionLabel')}>
            <Input.TextArea rows={3} maxLength={LEARNING_DESCRIPTION_MAX} />
          </Form.Item>
          <Space size={24} wrap>
            <Form.Item name="sortOrder" label={t('learningAdmin.sortOrder')} extra={t('learningAdmin.sortOrderHint')}>
              <InputNumber precision={0} min={-100000} max={100000} />
            </Form.Item>
            <Form.Item
              name="published"
              label={t('learningAdmin.published')}
              valuePropName="checked"
              extra={t('learningAdmin.publishedHint')}
            >
              <Switch />
            </Form.Item>
          </Space>
          <div>
            <Button type="primary" htmlType="submit" loading={upload.isPending} icon={<UploadOutlined />}>
              {upload.isPending ? t('learningAdmin.uploading') : t('learningAdmin.upload')}
            </Button>
          </div>
        </Form>
      </Card>
      <Card variant="borderless" title={t('learningAdmin.tab')}>
        <Table<Learning>
          rowKey="id"
          size="small"
          loading={list.isPending}
          dataSource={list.data?.items}
          columns={columns}
          pagination={false}
          footer={() => t('learningAdmin.total', { count: list.data?.count ?? 0 })}
        />
      </Card>
      <FormModal open={editing !== null} title={t('learningAdmin.editTitle')} onClose={() => setEditing(null)}>
        {editing && <EditLearning item={editing} onDone={() => setEditing(null)} />}
      </FormModal>
    </Space>
  );
}

function EditLearning({ item, onDone }: { item: Learning; onDone: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (values: EditValues) =>
      updateLearning(item.id, {
        title: values.title.trim(),
        description: values.description.trim(),
        sortOrder: values.sortOrder,
        published: values.published,
        durationSeconds: values.durationSeconds ?? null,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['learnings'] }),
  });

  async function handleFinish(values: EditValues) {
    try {
      await save.mutateAsync(values);
      notify.success(t('learningAdmin.saved'));
      onDone();
    } catch (error) {
      notify.error(error);
    }
  }

  return (
    <Form<EditValues>
      layout="vertical"
      onFinish={handleFinish}
      initialValues={{
        title: item.title,
        description: item.description,
        sortOrder: item.sortOrder,
        published: item.published,
        durationSeconds: item.durationSeconds,
      }}
    >
      <Form.Item
        name="title"
        label={t('learningAdmin.titleLabel')}
        rules={[
          { required: true, whitespace: true, max: LEARNING_TITLE_MAX, message: t('learningAdmin.titleRequired') },
        ]}
      >
        <Input maxLength={LEARNING_TITLE_MAX} />
      </Form.Item>
      <Form.Item name="description" label={t('learningAdmin.descriptionLabel')}>
        <Input.TextArea rows={3} maxLength={LEARNING_DESCRIPTION_MAX} />
      </Form.Item>
      <Space size={24} wrap>
        <Form.Item name="sortOrder" label={t('learningAdmin.sortOrder')}>
          <InputNumber precision={0} min={-100000} max={100000} />
        </Form.Item>
        <Form.Item name="durationSeconds" label={t('learningAdmin.durationLabel')}>
          <InputNumber precision={0} min={0} max={86400} />
        </Form.Item>
        <Form.Item name="published" label={t('learningAdmin.published')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Space>
      <FormModalActions onCancel={onDone} pending={save.isPending} />
    </Form>
  );
}
