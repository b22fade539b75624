import * as core from '@cornerstonejs/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { KeyImageRef, ViewerObject, ViewerSeries } from '@yyp/contracts';
import { loadSeriesStack } from './engine';
import { SERIES_DRAG_TYPE, type CellContent } from './ViewportCell';
import type { StudyObjects } from './useViewerObjects';
import type { OpenStudy } from './ViewerWorkspace';

/** A series thumbnail: its middle image rendered small, loaded when the study browser shows. */
function Thumbnail(props: { study: OpenStudy; series: ViewerSeries; ready: boolean; object?: ViewerObject }) {
  const { study, series, object } = props;
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  // A series of objects has no image to draw: a tile names its kind.
  const ready = props.ready && !object;
  useEffect(() => {
    if (!ready || !canvas.current) return;
    let live = true;
    void loadSeriesStack(study.openpath, study.context.studyUid, series.seriesUid)
      .then((stack) => {
        const middle = stack[Math.floor(stack.length / 2)];
        if (!live || !middle || !canvas.current) return;
        return core.utilities.loadImageToCanvas({ canvas: canvas.current, imageId: middle.imageId, thumbnail: true });
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [ready, study, series.seriesUid]);
  if (object) {
    return (
      <div className="viewer-thumb viewer-thumb-object" data-testid="object-thumb" data-kind={object.kind}>
        {t(`viewer.objects.kind.${object.kind}`)}
      </div>
    );
  }
  return (
    <div className="viewer-thumb">
      {failed ? <div className="viewer-thumb-failed">!</div> : <canvas ref={canvas} width={96} height={96} />}
    </div>
  );
}

/** The study browser: one draggable thumbnail per series; a click opens it in the active viewport. */
/** The key images of a study's key object selections: a click shows each in the active viewport. */
function KeyImages({
  keys,
  study,
  onOpen,
}: {
  keys: KeyImageRef[];
  study: OpenStudy;
  onOpen: (c: CellContent) => void;
}) {
  const { t } = useTranslation();
  if (keys.length === 0) return null;
  const seriesNo = (uid: string) => study.context.series.find((s) => s.seriesUid === uid)?.seriesNumber ?? '—';
  return (
    <div className="viewer-keys" data-testid="key-images">
      <div className="viewer-side-title">★ {t('viewer.objects.keyImages', { count: keys.length })}</div>
      {keys.map((k, i) => (
        <button
          type="button"
          key={`${k.sopUid}-${i}`}
          className="viewer-key"
          data-testid="key-image-link"
          title={k.note}
          onClick={() =>
            onOpen({
              studyUid: study.context.studyUid,
              seriesUid: k.seriesUid,
              target: { sopUid: k.sopUid, frame: k.frames[0] ?? null },
            })
          }
        >
          ★ {t('viewer.seriesNo')} {seriesNo(k.seriesUid)} · {i + 1} {k.note && `· ${k.note}`}
        </button>
      ))}
    </div>
  );
}

export function SeriesBrowser({
  study,
  ready,
  onOpen,
  objects,
}: {
  study: OpenStudy;
  ready: boolean;
  onOpen: (content: CellContent) => void;
  objects: StudyObjects;
}) {
  const { t } = useTranslation();
  const c = study.context;
  const keys = objects.keyImagesOf(c.studyUid);
  // Thumbnails wait for the study's objects: a series of objects draws no image.
  const known = objects.loaded(c.studyUid);
  return (
    <section className="viewer-study" data-testid={study.prior ? 'prior-study' : 'main-study'}>
      <div className="viewer-side-title">
        {study.prior && <span className="viewer-prior-tag">{t('viewer.prior')}</span>} {c.studyDate} {c.modality}
      </div>
      <div className="viewer-muted">{c.studyDescription || c.bodyPart}</div>
      <KeyImages keys={keys} study={study} onOpen={onOpen} />
      {c.series.map((s) => {
        const content: CellContent = { studyUid: c.studyUid, seriesUid: s.seriesUid };
        const object = objects.objectOf(c.studyUid, s.seriesUid);
        const keyCount = keys.filter((k) => k.seriesUid === s.seriesUid).length;
        return (
          <button
            type="button"
            key={s.seriesUid}
            className="viewer-series"
            draggable
            data-testid="series-thumb"
            onDragStart={(e) => {
              e.dataTransfer.setData(SERIES_DRAG_TYPE, JSON.stringify(content));
              e.dataTransfer.effectAllowed = 'copy';
            }}
            onClick={() => onOpen(content)}
            title={t('viewer.dragHint')}
          >
            <Thumbnail study={study} series={s} ready={ready && known} object={object} />
            <span>
              {t('viewer.seriesNo')} {s.seriesNumber ?? '—'} · {s.modality}
              <br />
              {s.description}
              <br />
              {object ? t(`viewer.objects.kind.${object.kind}`) : t('viewer.images', { count: s.instanceCount })}
              {keyCount > 0 && (
                <span className="viewer-key-badge" data-testid="key-badge" title={t('viewer.objects.keyImage')}>
                  {' '}
                  ★ {keyCount}
                </span>
              )}
            </span>
          </button>
        );
      })}
    </section>
  );
}
