import * as core from '@cornerstonejs/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ViewerSeries } from '@yyp/contracts';
import { loadSeriesStack } from './engine';
import { SERIES_DRAG_TYPE, type CellContent } from './ViewportCell';
import type { OpenStudy } from './ViewerWorkspace';

/** A series thumbnail: its middle image rendered small, loaded when the study browser shows. */
function Thumbnail({ study, series, ready }: { study: OpenStudy; series: ViewerSeries; ready: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
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
  return (
    <div className="viewer-thumb">
      {failed ? <div className="viewer-thumb-failed">!</div> : <canvas ref={canvas} width={96} height={96} />}
    </div>
  );
}

/** The study browser: one draggable thumbnail per series; a click opens it in the active viewport. */
export function SeriesBrowser({
  study,
  ready,
  onOpen,
}: {
  study: OpenStudy;
  ready: boolean;
  onOpen: (content: CellContent) => void;
}) {
  const { t } = useTranslation();
  const c = study.context;
  return (
    <section className="viewer-study" data-testid={study.prior ? 'prior-study' : 'main-study'}>
      <div className="viewer-side-title">
        {study.prior && <span className="viewer-prior-tag">{t('viewer.prior')}</span>} {c.studyDate} {c.modality}
      </div>
      <div className="viewer-muted">{c.studyDescription || c.bodyPart}</div>
      {c.series.map((s) => {
        const content: CellContent = { studyUid: c.studyUid, seriesUid: s.seriesUid };
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
            <Thumbnail study={study} series={s} ready={ready} />
            <span>
              {t('viewer.seriesNo')} {s.seriesNumber ?? '—'} · {s.modality}
              <br />
              {s.description}
              <br />
              {t('viewer.images', { count: s.instanceCount })}
            </span>
          </button>
        );
      })}
    </section>
  );
}
