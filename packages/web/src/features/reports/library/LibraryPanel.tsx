import { CloseOutlined } from '@ant-design/icons';
import type { ReportTemplate } from '@yyp/contracts';
import { Button, Tabs, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ImageDescList } from './ImageDescList';
import { PhrasesTree } from './PhrasesTree';
import { TemplateList } from './TemplateList';

interface LibraryPanelProps {
  bucketId: string;
  modality: string;
  writable: boolean;
  onApplyTemplate: (template: ReportTemplate) => void;
  onInsert: (text: string) => void;
  /** the text selected in the editor, to save as a phrase */
  selection: () => string;
  /** the findings and conclusion on screen, to save as a template */
  currentText: () => { findings: string; conclusion: string };
  onClose: () => void;
}

/** What a doctor writes from: templates, knowledge-base phrases and image description templates. */
export function LibraryPanel(props: LibraryPanelProps) {
  const { t } = useTranslation();
  return (
    <aside className="yyp-report__library" aria-label={t('report.library.title')}>
      <div className="yyp-report__library-head">
        <Typography.Text strong>{t('report.library.title')}</Typography.Text>
        <Tooltip title={t('report.library.close')}>
          <Button
            size="small"
            type="text"
            icon={<CloseOutlined />}
            aria-label={t('report.library.close')}
            onClick={props.onClose}
          />
        </Tooltip>
      </div>
      {!props.writable && (
        <Typography.Paragraph type="secondary" className="yyp-report__hint">
          {t('report.library.readOnly')}
        </Typography.Paragraph>
      )}
      <Tabs
        size="small"
        tabBarGutter={12}
        items={[
          {
            key: 'templates',
            label: t('report.library.templates'),
            children: (
              <TemplateList
                bucketId={props.bucketId}
                modality={props.modality}
                writable={props.writable}
                onApply={props.onApplyTemplate}
                currentText={props.currentText}
              />
            ),
          },
          {
            key: 'phrases',
            label: t('report.library.phrases'),
            children: (
              <PhrasesTree
                bucketId={props.bucketId}
                writable={props.writable}
                onInsert={props.onInsert}
                selection={props.selection}
              />
            ),
          },
          {
            key: 'imageDesc',
            label: t('report.library.imageDesc'),
            children: <ImageDescList bucketId={props.bucketId} writable={props.writable} onInsert={props.onInsert} />,
          },
        ]}
      />
    </aside>
  );
}
