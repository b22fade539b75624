import { Empty, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { useImageDescTemplates } from './useLibrary';
import { LibrarySearch } from './LibrarySearch';

interface ImageDescListProps {
  bucketId: string;
  writable: boolean;
  onInsert: (text: string) => void;
}

/** The organization's image description templates; a click inserts one at the cursor. */
export function ImageDescList({ bucketId, writable, onInsert }: ImageDescListProps) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const list = useImageDescTemplates(bucketId);
  if (list.isError) {
    return <LoadFailedAlert error={list.error} onRetry={() => void list.refetch()} />;
  }
  const q = query.trim().toLowerCase();
  const items = (list.data ?? []).filter(
    (d) => !q || d.title.toLowerCase().includes(q) || d.content.toLowerCase().includes(q),
  );
  return (
    <div className="yyp-library">
      <LibrarySearch value={query} onChange={setQuery} />
      {list.isPending ? (
        <Spin size="small" />
      ) : items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('report.library.empty')} />
      ) : (
        <ul className="yyp-library__list">
          {items.map((d) => (
            <li key={d.id}>
              <button
                type="button"
                className="yyp-library__item"
                disabled={!writable}
                title={d.content.slice(0, 200)}
                onClick={() => onInsert(d.content)}
              >
                <span className="yyp-library__item-title">{d.title}</span>
                {d.modality && <span className="yyp-library__item-meta">{d.modality}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
