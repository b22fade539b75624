import type { ToolName } from '../../features/viewer/toolNames';
import type { WindowPreset } from '../../features/viewer/presets';

const tools: Record<ToolName, string> = {
  WindowLevel: 'W/L',
  Zoom: 'Zoom',
  Pan: 'Pan',
  StackScroll: 'Scroll',
  Length: 'Length',
  Angle: 'Angle',
  EllipticalROI: 'Ellipse',
  RectangleROI: 'Rectangle',
  ArrowAnnotate: 'Arrow',
  PlanarRotate: 'Rotate',
};

const toolTips: Record<ToolName, string> = {
  WindowLevel: 'Window/level: drag with the left button (W)',
  Zoom: 'Zoom: drag (Z); the right button always zooms',
  Pan: 'Pan: drag (P); the middle button always pans',
  StackScroll: 'Scroll through the images by dragging (S); the wheel always scrolls',
  Length: 'Measure a length in mm (L)',
  Angle: 'Measure an angle (A)',
  EllipticalROI: 'Elliptical ROI: mean and SD in modality units (E)',
  RectangleROI: 'Rectangular ROI: mean and SD in modality units (R)',
  ArrowAnnotate: 'Arrow with a label (T)',
  PlanarRotate: 'Free rotation by dragging',
};

const presets: Record<WindowPreset['id'] | 'stored', string> = {
  stored: 'As stored in the image',
  lung: 'Lung',
  mediastinum: 'Mediastinum',
  bone: 'Bone',
  brain: 'Brain',
  abdomen: 'Abdomen',
  liver: 'Liver',
};

/** English: the image viewer. */
export const viewerEn = {
  viewer: {
    title: 'Image viewer',
    tools,
    toolTips,
    presets,
    window: 'Window',
    invert: 'Invert',
    rotate: 'Rotate 90°',
    flipH: 'Flip H',
    flipV: 'Flip V',
    reset: 'Reset',
    play: 'Play',
    stop: 'Stop',
    space: 'Space plays or stops the clip',
    compare: 'Compare with prior',
    noPriors: 'This patient has no other exams with images',
    link: 'Link scrolling',
    keyImage: 'Key image',
    keyImageSent: 'Sent to the report ({{n}} of {{max}} images)',
    measurements: 'Measurements',
    noMeasurements: 'None yet: choose Length, Angle, Ellipse or Rectangle and draw on the image.',
    clear: 'Clear',
    mean: 'mean',
    sd: 'SD',
    area: 'area',
    arrowLabel: 'Label of the arrow',
    prior: 'Prior',
    seriesNo: 'Series',
    imageNo: 'Image',
    zoom: 'Zoom',
    images: 'Images: {{count}}',
    dropHere: 'Drag a series here',
    dragHint: 'Click to show in the selected viewport, or drag into any viewport',
    loading: 'Loading images {{done}}/{{total}}',
    loadFailed: 'The images could not be loaded.',
    linkExpired: 'This viewer link has expired',
    linkExpiredHint: 'Open the study again from the study list, or ask for a new share link.',
    openFailed: 'The study cannot be opened',
  },
};
