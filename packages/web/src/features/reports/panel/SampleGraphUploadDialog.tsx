import { UploadOutlined } from '@ant-design/icons';
import { LIBRARY_TITLE_MAX, SAMPLE_GRAPH_TYPES } from '@yyp/contracts';
import { Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphFileProblem } from '../sampleGraphs';

const FILE_PROBLEM = {
  missing: 'report.graphs.fileMissing',
  wrongType: 'report.graphs.fileWrongType',
  tooLarge: 'report.graphs.fileTooLarge',
} as const;

interface SampleGraphUploadDialogProps {
  open: boolean;
  pending: boolean;
  onUpload: (title: string, file: File) => Promise<unknown>;
  onClose: () => void;
}

/** A new diagram for the organization: a PNG or JPEG (≤ 5 MB) and its title. */
export function SampleGraphUploadDialog({ open, pending, onUpload, onClose }: SampleGraphUploadDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ title: string; file: File | undefined }>();

  return (
    <Modal
      open={open}
      title={t('report.graphs.uploadTitle')}
      okText={t('report.graphs.upload')}
      confirmLoading={pending}
      onOk={() =>
        form.validateFields().then(
          (v) => v.file && onUpload(v.title.trim(), v.file).catch(() => undefined),
          () => undefined,
        )
      }
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        onValuesChange={(changed: { file?: File }) => {
          // A picked file names the graph unless a title was typed already.
          if (changed.file && !form.getFieldValue('title')) {
            form.setFieldValue('title', changed.file.name.replace(/\.[^.]+$/, '').slice(0, LIBRARY_TITLE_MAX));
          }
        }}
      >
        <Form.Item
          name="file"
          label={t('report.graphs.file')}
          rules={[
            {
              validator: (_, file: File | undefined) => {
                const problem = file ? graphFileProblem(file) : 'missing';
                return problem ? Promise.reject(new Error(t(FILE_PROBLEM[problem]))) : Promise.resolve();
              },
            },
          ]}
        >
          <FilePicker />
        </Form.Item>
        <Form.Item
          name="title"
          label={t('report.graphs.graphTitle')}
          rules={[{ required: true, whitespace: true, message: t('report.graphs.titleRequired') }]}
        >
          <Input maxLength={LIBRARY_TITLE_MAX} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** A form control holding one image file, shown as its name and a preview. */
function FilePicker({ value, onChange }: { value?: File; onChange?: (file: File | undefined) => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    const url = value && !graphFileProblem(value) ? URL.createObjectURL(value) : null;
    setPreview(url);
    return () => {
      if (url) {
        URL.revokeObjectURL(url);
      }
    };
  }, [value]);
  return (
    <div className="yyp-graphs__picker">
      <Space size={8} wrap>
        <Button size="small" icon={<UploadOutlined />} onClick={() => input.current?.click()}>
          {t('report.graphs.chooseFile')}
        </Button>
        {value && <Typography.Text type="secondary">{value.name}</Typography.Text>}
      </Space>
      <input
        ref={input}
        type="file"
        accept={SAMPLE_GRAPH_TYPES.join(',')}
        // Not `hidden`: Ant Design's form styles show every file input as a block.
        style={{ display: 'none' }}
        data-testid="sample-graph-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          onChange?.(file);
        }}
      />
      {preview && <img src={preview} alt="" className="yyp-graphs__preview" />}
      <Typography.Text type="secondary" className="yyp-report__hint">
        {t('report.graphs.fileHint')}
      </Typography.Text>
    </div>
  );
}
