/** The viewer's left-button tools, in toolbar order, and their keyboard shortcuts. */
export const TOOL_NAMES = [
  'WindowLevel',
  'Zoom',
  'Pan',
  'StackScroll',
  'Length',
  'Angle',
  'EllipticalROI',
  'RectangleROI',
  'ArrowAnnotate',
  'PlanarRotate',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export const TOOL_KEYS: Record<string, ToolName> = {
  w: 'WindowLevel',
  z: 'Zoom',
  p: 'Pan',
  s: 'StackScroll',
  l: 'Length',
  a: 'Angle',
  e: 'EllipticalROI',
  r: 'RectangleROI',
  t: 'ArrowAnnotate',
};
