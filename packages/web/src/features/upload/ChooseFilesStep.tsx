import { DeleteOutlined, FileAddOutlined, FolderAddOutlined, InboxOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Spin, Table, Typography, type TableColumnsType } from 'antd';
import { useRef, useState, type ChangeEvent, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../ui/formatBytes';
import { addPicked, filesFromDrop, pickedFile, totalBytes, type PickedFile } from './pickedFiles';

interface ChooseFilesStepProps {
  files: PickedFile[];
  onFilesChange: (files: PickedFile[]) => void;
  /** The organization of an unfinished upload these files can continue: said above the drop zone. */
  resumeOrganization?: string | null;
  /** The step's own action: "Next" or "Start upload". */
  action: ReactNode;
}

/** Step 1: files or whole folders, chosen or dropped. Nothing is refused here: the server decides. */
export function ChooseFilesStep({ files, onFilesChange, resumeOrganization, action }: ChooseFilesStepProps) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave also fire for the zone's children: count them to know when it is left.
  const dragDepth = useRef(0);
  const [reading, setReading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  function handleInputChange(event: ChangeEvent<HTMLInputElement>) {
    const chosen = [...(event.target.files ?? [])].map((file) => pickedFile(file));
    onFilesChange(addPicked(files, chosen));
    // Choosing the same folder again must fire another change.
    event.target.value = '';
  }

  function handleDragEnter(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    dragDepth.current += 1;
    setDragging(true);
  }

  function handleDragLeave() {
    dragDepth.current = Math.max(0, dragDepth.current - 1);
    if (dragDepth.current === 0) {
      setDragging(false);
    }
  }

  function handleDragOver(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }

  async function handleDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    dragDepth.current = 0;
    setDragging(false);
    setReading(true);
    try {
      onFilesChange(addPicked(files, await filesFromDrop(event.dataTransfer)));
    } finally {
      setReading(false);
    }
  }

  function handleRemove(key: string) {
    onFilesChange(files.filter((picked) => picked.key !== key));
  }

  const columns: TableColumnsType<PickedFile> = [
    { key: 'path', title: t('upload.colFile'), dataIndex: 'path', ellipsis: true },
    {
      key: 'size',
      title: t('upload.colSize'),
      width: 120,
      align: 'end',
      render: (_, picked) => formatBytes(picked.file.size),
    },
    {
      key: 'actions',
      title: t('common.actions'),
      width: 100,
      render: (_, picked) => (
        <Button
          type="link"
          size="small"
          className="yyp-link-button"
          icon={<DeleteOutlined />}
          onClick={() => handleRemove(picked.key)}
          aria-label={`${t('common.remove')} ${picked.path}`}
        >
          {t('common.remove')}
        </Button>
      ),
    },
  ];

  return (
    <div className="yyp-wizard-step">
      {resumeOrganization && (
        <Alert type="info" showIcon title={t('upload.resumeNotice', { organization: resumeOrganization })} />
      )}
      <div
        className={dragging ? 'yyp-dropzone yyp-dropzone--active' : 'yyp-dropzone'}
        onDragEnter={handleDragEnter}
        onDragOver={handleDragOver}
        onDragLeave={handleDragLeave}
        onDrop={(event) => void handleDrop(event)}
      >
        <InboxOutlined className="yyp-dropzone__icon" />
        <div className="yyp-dropzone__title">{t('upload.dropTitle')}</div>
        <Typography.Text type="secondary">{t('upload.dropHint')}</Typography.Text>
        <Space wrap className="yyp-dropzone__buttons">
          <Button icon={<FileAddOutlined />} onClick={() => fileInput.current?.click()}>
            {t('upload.chooseFiles')}
          </Button>
          <Button icon={<FolderAddOutlined />} onClick={() => folderInput.current?.click()}>
            {t('upload.chooseFolder')}
          </Button>
        </Space>
        <input
          ref={fileInput}
          type="file"
          multiple
          className="yyp-visually-hidden"
          data-testid="upload-files-input"
          aria-label={t('upload.chooseFiles')}
          tabIndex={-1}
          onChange={handleInputChange}
        />
        <input
          ref={(input) => {
            folderInput.current = input;
            if (input) {
              input.webkitdirectory = true;
            }
          }}
          type="file"
          multiple
          className="yyp-visually-hidden"
          data-testid="upload-folder-input"
          aria-label={t('upload.chooseFolder')}
          tabIndex={-1}
          onChange={handleInputChange}
        />
        {reading && <Spin description={t('upload.reading')} />}
      </div>
      {files.length === 0 ? (
        <Alert type="info" showIcon title={t('upload.noFiles')} />
      ) : (
        <>
          <div className="yyp-upload-totals">
            <Space size="large" wrap>
              <Typography.Text strong>{t('upload.fileCount', { count: files.length })}</Typography.Text>
              <Typography.Text strong>
                {t('upload.totalSize', { size: formatBytes(totalBytes(files)) })}
              </Typography.Text>
            </Space>
            <Button size="small" onClick={() => onFilesChange([])}>
              {t('upload.clearAll')}
            </Button>
          </div>
          <Table<PickedFile>
            rowKey="key"
            size="small"
            columns={columns}
            dataSource={files}
            pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
          />
        </>
      )}
      <div className="yyp-wizard-actions">{action}</div>
    </div>
  );
}
