import { useQuery } from '@tanstack/react-query';
import type { SrDocument, SrItem, ViewerObject } from '@yyp/contracts';
import { Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errorMessage';
import { usePersonName } from '../../ui/usePersonName';
import { fetchDocumentLink, fetchSrDocument, type InstanceRef } from './objectsApi';

/** Relationship types (PS3.3 C.17.3.2.4) that have a label of their own; others show as sent. */
const RELATIONSHIPS = {
  CONTAINS: 'contains',
  'HAS PROPERTIES': 'hasProperties',
  'HAS OBS CONTEXT': 'hasObsContext',
  'HAS ACQ CONTEXT': 'hasAcqContext',
  'HAS CONCEPT MOD': 'hasConceptMod',
  'INFERRED FROM': 'inferredFrom',
  'SELECTED FROM': 'selectedFrom',
} as const;

function Relationship({ value }: { value: string }) {
  const { t } = useTranslation();
  if (!value || value === 'CONTAINS') return null;
  const key = RELATIONSHIPS[value as keyof typeof RELATIONSHIPS];
  return <span className="viewer-sr-rel">{key ? t(`viewer.objects.rel.${key}`) : value.toLowerCase()}</span>;
}

function Item({ item, onOpenImage }: { item: SrItem; onOpenImage?: (sopUid: string, frame: number | null) => void }) {
  const { t } = useTranslation();
  const personName = usePersonName();
  // The root container is the document's title (shown above): its items start at the margin.
  const indent = { paddingLeft: `${Math.min(Math.max(item.depth - 1, 0), 12) * 16}px` };
  if (item.valueType === 'CONTAINER') {
    const Heading = item.depth === 0 ? 'h3' : 'h4';
    return (
      <div className="viewer-sr-item viewer-sr-container" style={indent}>
        <Relationship value={item.relationship} />
        <Heading>{item.concept || '—'}</Heading>
      </div>
    );
  }
  const ref = item.reference;
  return (
    <div className="viewer-sr-item" style={indent} data-value-type={item.valueType}>
      <Relationship value={item.relationship} />
      {item.concept && <span className="viewer-sr-concept">{item.concept}: </span>}
      {ref && onOpenImage ? (
        <button type="button" className="viewer-sr-link" onClick={() => onOpenImage(ref.sopUid, ref.frames[0] ?? null)}>
          {t('viewer.objects.showImage')}
        </button>
      ) : item.valueType === 'REFERENCE' ? (
        <span className="viewer-muted">{t('viewer.objects.seeItem', { path: item.value })}</span>
      ) : (
        <span className="viewer-sr-value">{item.valueType === 'PNAME' ? personName(item.value) : item.value}</span>
      )}
    </div>
  );
}

/** A Structured Report (or key object selection) as readable text: its header, then its content tree. */
export function SrPanel({
  doc,
  onOpenImage,
}: {
  doc: SrDocument;
  onOpenImage?: (sopUid: string, frame: number | null) => void;
}) {
  const { t } = useTranslation();
  const personName = usePersonName();
  const flags: Record<string, string> = {
    COMPLETE: t('viewer.objects.flags.complete'),
    PARTIAL: t('viewer.objects.flags.partial'),
    VERIFIED: t('viewer.objects.flags.verified'),
    UNVERIFIED: t('viewer.objects.flags.unverified'),
  };
  const flag = (value: string, good: string) =>
    value ? <Tag color={value === good ? 'green' : 'orange'}>{flags[value] ?? value}</Tag> : null;
  return (
    <article className="viewer-sr" data-testid="sr-panel">
      <header className="viewer-sr-header">
        <div className="viewer-sr-title">{doc.title || t('viewer.objects.kind.sr')}</div>
        <div>
          {flag(doc.completion, 'COMPLETE')}
          {flag(doc.verification, 'VERIFIED')}
        </div>
        <div className="viewer-muted">
          {personName(doc.patientName)} {doc.patientId && `(${doc.patientId})`} · {doc.contentDate} {doc.contentTime}
          {doc.institution && ` · ${doc.institution}`}
        </div>
        {doc.observers.map((o, i) => (
          <div key={i} className="viewer-muted" data-testid="sr-observer">
            {t(`viewer.objects.${o.role}`)}: {personName(o.name)}
            {o.organization && `, ${o.organization}`}
            {o.dateTime && ` · ${o.dateTime}`}
          </div>
        ))}
        {doc.truncated && <div className="viewer-sr-truncated">{t('viewer.objects.truncated')}</div>}
      </header>
      <div className="viewer-sr-tree" data-testid="sr-tree">
        {doc.items.map((item, i) =>
          i === 0 && item.depth === 0 && item.valueType === 'CONTAINER' ? null : (
            <Item key={i} item={item} onOpenImage={onOpenImage} />
          ),
        )}
      </div>
    </article>
  );
}

/** Loads and shows an SR document. */
function SrObject({
  openpath,
  at,
  onOpenImage,
}: {
  openpath: string;
  at: InstanceRef;
  onOpenImage?: (sopUid: string, frame: number | null) => void;
}) {
  const { t } = useTranslation();
  const doc = useQuery({
    queryKey: ['viewer', 'sr', at.studyUid, at.seriesUid, at.sopUid],
    queryFn: () => fetchSrDocument(openpath, at),
    retry: false,
    staleTime: Infinity,
  });
  if (doc.isPending) return <Spin className="viewer-object-wait" />;
  if (doc.isError) return <div className="viewer-object-error">{errorMessage(t, doc.error)}</div>;
  return <SrPanel doc={doc.data} onOpenImage={onOpenImage} />;
}

/** An encapsulated PDF in a frame, read through a short-lived link (a frame sends no header). */
function PdfObject({ openpath, at }: { openpath: string; at: InstanceRef }) {
  const { t } = useTranslation();
  const link = useQuery({
    queryKey: ['viewer', 'pdf-link', at.studyUid, at.seriesUid, at.sopUid],
    queryFn: () => fetchDocumentLink(openpath, at),
    retry: false,
    // The link lives five minutes: a new one each time the document is shown again.
    gcTime: 0,
  });
  if (link.isPending) return <Spin className="viewer-object-wait" />;
  if (link.isError) return <div className="viewer-object-error">{errorMessage(t, link.error)}</div>;
  return (
    <iframe className="viewer-pdf" src={link.data.url} title={t('viewer.objects.kind.pdf')} data-testid="pdf-frame" />
  );
}

/**
 * What a viewport shows for a series of objects instead of a canvas: an SR (or key object
 * selection) as text, a PDF inline; a presentation state names the images it annotates.
 */
export function ObjectView(props: {
  openpath: string;
  studyUid: string;
  object: ViewerObject;
  onOpenImage?: (sopUid: string, frame: number | null) => void;
}) {
  const { t } = useTranslation();
  const { object } = props;
  const at = { studyUid: props.studyUid, seriesUid: object.seriesUid, sopUid: object.sopUid };
  return (
    <div className="viewer-object" data-testid="object-view" data-kind={object.kind}>
      {object.kind === 'pdf' ? (
        <PdfObject openpath={props.openpath} at={at} />
      ) : object.kind === 'pr' ? (
        <div className="viewer-object-error">{t('viewer.objects.presentationState')}</div>
      ) : (
        <SrObject openpath={props.openpath} at={at} onOpenImage={props.onOpenImage} />
      )}
    </div>
  );
}
