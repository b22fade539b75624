import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  CameraOutlined,
  DeleteOutlined,
  SnippetsOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { KEY_IMAGE_DESC_MAX, KEY_IMAGE_TYPES, type ReportImage } from '@yyp/contracts';
import { Button, Checkbox, Empty, Input, Popconfirm, Space, Tooltip, Typography } from 'antd';
import { useEffect, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { ReadOnlyMark } from '../fromExperts';
import { moveItem } from '../keyImages';
import type { KeyImages } from '../useKeyImages';

interface KeyImagesTabProps {
  keyImages: KeyImages;
  writable: boolean;
  /** the experts' report published back here: no image is added, changed or removed (fromExperts.tsx) */
  readOnly?: boolean;
  hasImages: boolean;
  fileInput: RefObject<HTMLInputElement | null>;
  onOpenViewer: () => void;
  /** a picker of description templates for one image, when the library offers them */
  descTemplates?: (apply: (text: string) => void) => ReactNode;
}

/**
 * Key images (spec 000 §3 report images): thumbnails in print order, reordered by dragging or with
 * the arrows, each with a description and a print flag. New ones come from the viewer (F1), a
 * local file, or the clipboard (Ctrl+V anywhere on the page).
 */
export function KeyImagesTab({
  keyImages,
  writable,
  readOnly = false,
  hasImages,
  fileInput,
  onOpenViewer,
  descTemplates,
}: KeyImagesTabProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [dragged, setDragged] = useState<string | null>(null);
  const { list, limit } = keyImages;
  const ids = list.map((i) => i.id);
  const move = (from: number, to: number) => keyImages.order.mutate(moveItem(ids, from, to));

  /** Read an image from the clipboard (the browser may ask first); Ctrl+V on the page needs no asking. */
  async function handlePaste() {
    try {
      for (const item of await navigator.clipboard.read()) {
        const type = item.types.find((kind) => kind.startsWith('image/'));
        if (type) {
          keyImages.addImage(await item.getType(type));
          return;
        }
      }
    } catch {
      // No permission or no clipboard API: say how to paste instead.
    }
    notify.info(t('report.snap.noClipboardImage'));
  }

  return (
    <div className="yyp-report__stack">
      <div className="yyp-report__snap-bar">
        <Typography.Text type="secondary" data-testid="snap-count">
          {t('report.snap.count', { count: list.length, limit })}
        </Typography.Text>
        {readOnly && <ReadOnlyMark testId="snap-read-only" />}
        {writable && !readOnly && (
          <Space size={4} wrap>
            {hasImages && (
              <Button size="small" icon={<CameraOutlined />} onClick={onOpenViewer}>
                {t('report.snap.capture')}
              </Button>
            )}
            <Button
              size="small"
              icon={<UploadOutlined />}
              loading={keyImages.adding}
              disabled={list.length >= limit}
              onClick={() => fileInput.current?.click()}
            >
              {t('report.snap.addFile')}
            </Button>
            <Button
              size="small"
              icon={<SnippetsOutlined />}
              disabled={list.length >= limit}
              onClick={() => void handlePaste()}
            >
              {t('report.snap.paste')}
            </Button>
          </Space>
        )}
      </div>
      {writable && (
        <Typography.Text type="secondary" className="yyp-report__hint">
          {t('report.snap.pasteHint')} {list.length > 1 ? t('report.snap.dragHint') : ''}
        </Typography.Text>
      )}
      <input
        ref={fileInput}
        type="file"
        accept={KEY_IMAGE_TYPES.join(',')}
        hidden
        data-testid="key-image-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) {
            keyImages.addImage(file);
          }
        }}
      />
      {keyImages.images.isError && (
        <LoadFailedAlert error={keyImages.images.error} onRetry={() => void keyImages.images.refetch()} />
      )}
      {keyImages.images.data && list.length === 0 && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('report.snap.empty')} />
      )}
      <ol className="yyp-stack-list">
        {list.map((image, index) => (
          <li
            key={image.id}
            className={`yyp-report__snap${dragged === image.id ? ' yyp-report__snap--dragged' : ''}`}
            draggable={writable}
            onDragStart={(e) => {
              setDragged(image.id);
              e.dataTransfer.effectAllowed = 'move';
            }}
            onDragEnd={() => setDragged(null)}
            onDragOver={(e) => {
              if (dragged) {
                e.preventDefault();
              }
            }}
            onDrop={(e) => {
              e.preventDefault();
              const from = dragged ? ids.indexOf(dragged) : -1;
              setDragged(null);
              if (from >= 0 && from !== index) {
                move(from, index);
              }
            }}
            data-testid="key-image"
          >
            <a href={image.url} target="_blank" rel="noreferrer" className="yyp-report__snap-thumb">
              <img src={image.url} alt={image.desc || t('report.snap.image', { index: index + 1 })} draggable={false} />
            </a>
            <div className="yyp-report__snap-body">
              <ImageDescription
                image={image}
                writable={writable}
                onSave={(desc) => keyImages.patch.mutate({ id: image.id, change: { desc } })}
                templates={descTemplates}
              />
              <div className="yyp-report__snap-tools">
                <Checkbox
                  checked={image.isPrinted}
                  disabled={!writable}
                  onChange={(e) => keyImages.patch.mutate({ id: image.id, change: { isPrinted: e.target.checked } })}
                >
                  {t('report.snap.print')}
                </Checkbox>
                {writable && (
                  <Space size={2}>
                    <Tooltip title={t('report.snap.moveUp')}>
                      <Button
                        size="small"
                        type="text"
                        icon={<ArrowUpOutlined />}
                        aria-label={t('report.snap.moveUp')}
                        disabled={index === 0}
                        onClick={() => move(index, index - 1)}
                      />
                    </Tooltip>
                    <Tooltip title={t('report.snap.moveDown')}>
                      <Button
                        size="small"
                        type="text"
                        icon={<ArrowDownOutlined />}
                        aria-label={t('report.snap.moveDown')}
                        disabled={index === list.length - 1}
                        onClick={() => move(index, index + 1)}
                      />
                    </Tooltip>
                    <Popconfirm
                      title={t('report.snap.deleteConfirm')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => keyImages.remove.mutateAsync(image.id)}
                    >
                      <Button
                        size="small"
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('report.snap.delete')}
                      />
                    </Popconfirm>
                  </Space>
                )}
              </div>
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}

interface ImageDescriptionProps {
  image: ReportImage;
  writable: boolean;
  onSave: (desc: string) => void;
  templates?: (apply: (text: string) => void) => ReactNode;
}

/** A description typed in place, saved when the field is left or Enter is pressed. */
function ImageDescription({ image, writable, onSave, templates }: ImageDescriptionProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState(image.desc);
  useEffect(() => setValue(image.desc), [image.desc]);
  const commit = (next: string) => {
    if (next.trim() !== image.desc) {
      onSave(next.trim());
    }
  };
  if (!writable) {
    return <Typography.Text>{image.desc}</Typography.Text>;
  }
  return (
    <Space.Compact className="yyp-full-width">
      <Input
        size="small"
        value={value}
        maxLength={KEY_IMAGE_DESC_MAX}
        placeholder={t('report.snap.descPlaceholder')}
        aria-label={t('report.snap.desc')}
        onChange={(e) => setValue(e.target.value)}
        onBlur={() => commit(value)}
        onPressEnter={() => commit(value)}
      />
      {templates?.((text) => {
        setValue(text);
        commit(text);
      })}
    </Space.Compact>
  );
}
