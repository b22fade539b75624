import * as core from '@cornerstonejs/core';
import type { ImageAnnotation } from '@yyp/contracts';
import { useEffect, useState, type RefObject } from 'react';
import { annotationShapes, type Shape } from './annotations';
import { RENDERING_ENGINE_ID } from './engine';
import { gspsPointToCanvas } from './imagePoint';

function Drawn({ shape }: { shape: Shape }) {
  const stroke = { stroke: '#fadb14', strokeWidth: 1.5, fill: 'none' };
  switch (shape.kind) {
    case 'point':
      return <circle cx={shape.at[0]} cy={shape.at[1]} r={3} {...stroke} fill="#fadb14" />;
    case 'ellipse':
      return (
        <ellipse
          cx={shape.center[0]}
          cy={shape.center[1]}
          rx={shape.rx}
          ry={shape.ry}
          transform={`rotate(${shape.rotation} ${shape.center[0]} ${shape.center[1]})`}
          {...stroke}
          fillOpacity={shape.filled ? 0.3 : 0}
          fill={shape.filled ? '#fadb14' : 'none'}
        />
      );
    case 'polyline': {
      const points = shape.points.map((p) => p.join(',')).join(' ');
      return shape.closed ? (
        <polygon points={points} {...stroke} fill={shape.filled ? '#fadb14' : 'none'} fillOpacity={0.3} />
      ) : (
        <polyline points={points} {...stroke} />
      );
    }
    case 'text':
      return (
        <text
          x={shape.at[0] + 4}
          y={shape.at[1] - 4}
          fill="#fadb14"
          fontSize={14}
          stroke="#000"
          strokeWidth={3}
          paintOrder="stroke"
        >
          {shape.text}
        </text>
      );
  }
}

/** The shapes in canvas pixels, or null while the image's geometry is not known yet. */
function shapesOf(viewport: core.StackViewport, imageId: string, annotations: ImageAnnotation[]): Shape[] | null {
  const cpu = core.getShouldUseCPURendering();
  const toCanvas = (x: number, y: number): [number, number] => {
    const at = gspsPointToCanvas(viewport, imageId, x, y, cpu);
    if (!at) throw new Error('no geometry');
    return at;
  };
  try {
    return annotationShapes(annotations, toCanvas);
  } catch {
    return null;
  }
}

const REDRAW_ON = [
  core.Enums.Events.IMAGE_RENDERED,
  core.Enums.Events.CAMERA_MODIFIED,
  core.Enums.Events.STACK_NEW_IMAGE,
] as const;

/**
 * A presentation state's annotations over a stack viewport's current image: an SVG layer redrawn
 * whenever the viewport renders (scroll, zoom, pan, resize), its image pixels mapped to the canvas.
 */
export function AnnotationOverlay(props: {
  viewportId: string;
  element: RefObject<HTMLDivElement | null>;
  imageId: string | undefined;
  annotations: ImageAnnotation[];
}) {
  const { viewportId, element, imageId, annotations } = props;
  const [rendered, setRendered] = useState(0);
  useEffect(() => {
    const el = element.current;
    if (!el) return;
    const onRender = () => setRendered((n) => n + 1);
    for (const e of REDRAW_ON) el.addEventListener(e, onRender);
    return () => {
      for (const e of REDRAW_ON) el.removeEventListener(e, onRender);
    };
  }, [element]);
  const engine = core.getRenderingEngine(RENDERING_ENGINE_ID);
  const viewport = engine?.getViewport(viewportId) as core.StackViewport | undefined;
  const current = viewport && imageId && viewport.getCurrentImageId() === imageId;
  const shapes = current ? shapesOf(viewport, imageId, annotations) : null;
  // Until the image and its geometry are on the canvas, look again shortly (a render may have gone by unheard).
  const waiting = shapes === null && annotations.length > 0;
  useEffect(() => {
    if (!waiting) return;
    const again = setTimeout(() => setRendered((n) => n + 1), 200);
    return () => clearTimeout(again);
  }, [waiting, rendered]);
  if (!shapes || shapes.length === 0) return null;
  return (
    <svg className="viewer-annotations" data-testid="gsps-overlay" data-shapes={shapes.length}>
      {shapes.map((s, i) => (
        <Drawn key={i} shape={s} />
      ))}
    </svg>
  );
}
