import { Button, Dropdown, Segmented, Space, Tooltip, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { layoutCells, LAYOUTS, type Layout } from './presets';
import { TOOL_NAMES, type ToolName } from './toolNames';

export interface ViewerToolbarProps {
  tool: ToolName;
  onTool: (tool: ToolName) => void;
  presetMenu: MenuProps['items'];
  onInvert: () => void;
  onRotate: () => void;
  onFlip: (horizontal: boolean) => void;
  onReset: () => void;
  playing: boolean;
  onCine: () => void;
  layout: Layout;
  onLayout: (layout: Layout) => void;
  /** the prior studies to compare with; undefined when comparing is not allowed */
  priorMenu?: MenuProps['items'];
  onOpenPriors: () => void;
  linked: boolean;
  onToggleLink: () => void;
  /** sending a key image to the report; undefined when not allowed */
  onCapture?: () => void;
  capturing: boolean;
  /** more controls at the end (shared viewing's Present and Follow) */
  extra?: ReactNode;
}

/** The viewer's toolbar: tools, window presets, orientation, cine, layout, comparison, key image. */
export function ViewerToolbar(props: ViewerToolbarProps) {
  const { t } = useTranslation();
  return (
    <div className="viewer-toolbar" role="toolbar">
      <Space wrap size={4}>
        {TOOL_NAMES.map((name) => (
          <Tooltip key={name} title={t(`viewer.toolTips.${name}`)}>
            <Button
              size="small"
              type={props.tool === name ? 'primary' : 'default'}
              onClick={() => props.onTool(name)}
              data-testid={`tool-${name}`}
            >
              {t(`viewer.tools.${name}`)}
            </Button>
          </Tooltip>
        ))}
        <Dropdown menu={{ items: props.presetMenu }} trigger={['click']}>
          <Button size="small" data-testid="presets">
            {t('viewer.window')}
          </Button>
        </Dropdown>
        <Button size="small" onClick={props.onInvert} title="I">
          {t('viewer.invert')}
        </Button>
        <Button size="small" onClick={props.onRotate} title="]">
          {t('viewer.rotate')}
        </Button>
        <Button size="small" onClick={() => props.onFlip(true)} title="H">
          {t('viewer.flipH')}
        </Button>
        <Button size="small" onClick={() => props.onFlip(false)} title="V">
          {t('viewer.flipV')}
        </Button>
        <Button size="small" onClick={props.onReset} title="0">
          {t('viewer.reset')}
        </Button>
        <Button size="small" onClick={props.onCine} title={t('viewer.space')} data-testid="cine">
          {props.playing ? t('viewer.stop') : t('viewer.play')}
        </Button>
        <Segmented
          size="small"
          value={props.layout}
          options={LAYOUTS.map((l) => ({ value: l, label: l.replace('x', '×') }))}
          onChange={(v) => props.onLayout(v as Layout)}
        />
        {props.priorMenu && (
          <Dropdown
            menu={{ items: props.priorMenu }}
            trigger={['click']}
            onOpenChange={(open) => open && props.onOpenPriors()}
          >
            <Button size="small" data-testid="compare">
              {t('viewer.compare')}
            </Button>
          </Dropdown>
        )}
        {layoutCells(props.layout) > 1 && (
          <Button
            size="small"
            type={props.linked ? 'primary' : 'default'}
            onClick={props.onToggleLink}
            data-testid="link"
          >
            {t('viewer.link')}
          </Button>
        )}
        {props.onCapture && (
          <Button size="small" loading={props.capturing} onClick={props.onCapture} data-testid="key-image" title="F1">
            {t('viewer.keyImage')} (F1)
          </Button>
        )}
        {props.extra}
      </Space>
    </div>
  );
}
