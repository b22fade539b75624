import type { PrintSampleGraph as PrintedGraph } from '@yyp/contracts';
import { SampleGraphMark } from '../SampleGraphMark';
import { markSize } from '../sampleGraphs';

/**
 * A sample graph on the printed sheet: the diagram with its numbered marks drawn over it in the
 * image's own pixels, as the editor shows them, and its title under it.
 */
export function PrintSampleGraph({ graph }: { graph: PrintedGraph }) {
  const { width, height } = graph;
  const { radius, fontSize } = markSize(height);
  return (
    <figure className="yyp-print-sheet__graph" data-testid="print-sample-graph">
      <div
        className="yyp-print-sheet__graph-canvas"
        style={{ aspectRatio: `${width} / ${height}`, maxWidth: `calc(62mm * ${width / height})` }}
      >
        <img src={graph.url} alt={graph.title} />
        <svg viewBox={`0 0 ${width} ${height}`} aria-hidden="true">
          {graph.points.map((p, index) => (
            <g key={`${p.label}-${index}`} data-testid="print-sample-mark">
              <SampleGraphMark point={p} radius={radius} fontSize={fontSize} imageWidth={width} />
            </g>
          ))}
        </svg>
      </div>
      {graph.title && <figcaption>{graph.title}</figcaption>}
    </figure>
  );
}
