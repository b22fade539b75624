import type { SamplePoint } from '@yyp/contracts';
import { labelPlacement } from './sampleGraphs';

interface SampleGraphMarkProps {
  point: SamplePoint;
  radius: number;
  fontSize: number;
  /** the image's width in its own pixels: a label that would run off it goes left of its circle */
  imageWidth: number;
}

/**
 * One numbered mark of a sample graph as SVG in the image's own pixels: a circle in the mark's
 * colour and its label beside it. The editor and the print view draw marks with this, so a print
 * shows them as they were placed.
 */
export function SampleGraphMark({ point, radius, fontSize, imageWidth }: SampleGraphMarkProps) {
  const label = labelPlacement(point, radius, fontSize, imageWidth);
  return (
    <>
      <circle
        cx={point.x}
        cy={point.y}
        r={radius}
        fill={point.color}
        fillOpacity={0.2}
        stroke={point.color}
        strokeWidth={radius / 4}
      />
      <text
        x={label.x}
        y={point.y}
        textAnchor={label.anchor}
        dominantBaseline="central"
        fontSize={fontSize}
        fontWeight={600}
        fill={point.color}
        stroke="#fff"
        strokeWidth={fontSize / 6}
        paintOrder="stroke"
      >
        {point.label}
      </text>
    </>
  );
}
