import { DeleteOutlined, DownOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { MAX_REPORT_SAMPLE_GRAPHS, MAX_SAMPLE_POINTS, type ReportSampleGraph, type SamplePoint } from '@yyp/contracts';
import { Button, Checkbox, Dropdown, Empty, Popconfirm, Space, Tooltip, Typography } from 'antd';
import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { usePermissions } from '../../../shared/permissions/permissions';
import { ReadOnlyMark } from '../fromExperts';
import { SampleGraphMark } from '../SampleGraphMark';
import { MARK_COLORS, clickMarks, markSize, toImagePoint } from '../sampleGraphs';
import { useSampleGraphs } from '../useSampleGraphs';
import { SampleGraphUploadDialog } from './SampleGraphUploadDialog';
import './sampleGraphs.css';

interface SampleGraphsSectionProps {
  reportId: string;
  bucketId: string;
  writable: boolean;
  /** the experts' report published back here: nothing placed, marked or uploaded (fromExperts.tsx) */
  readOnly?: boolean;
}

/**
 * Sample graphs on the report (spec 000 §3 "Sample graph … point (x, y, color), isPrinted"): one of
 * the organization's diagrams placed on the report, with numbered marks clicked onto it. Those who
 * manage the organization's diagrams (manage_sample_graph) upload new ones here.
 */
export function SampleGraphsSection({
  reportId,
  bucketId,
  writable: canWrite,
  readOnly = false,
}: SampleGraphsSectionProps) {
  const { t } = useTranslation();
  const actions = usePermissions();
  const writable = canWrite && !readOnly;
  const canManage = !readOnly && actions.can(bucketId, 'manage_sample_graph');
  const graphs = useSampleGraphs(reportId, bucketId, { withLibrary: writable || canManage });
  const [color, setColor] = useState<string>(MARK_COLORS[0].value);
  const [uploading, setUploading] = useState(false);
  const placed = graphs.placed.data ?? [];
  const library = graphs.library.data ?? [];
  const full = placed.length >= MAX_REPORT_SAMPLE_GRAPHS;

  return (
    <section className="yyp-graphs" aria-labelledby="yyp-graphs-title">
      <div className="yyp-report__snap-bar">
        <Space size={6} align="baseline">
          <Typography.Text strong id="yyp-graphs-title">
            {t('report.graphs.title')}
          </Typography.Text>
          <Typography.Text type="secondary" data-testid="sample-graph-count">
            {t('report.snap.count', { count: placed.length, limit: MAX_REPORT_SAMPLE_GRAPHS })}
          </Typography.Text>
        </Space>
        <Space size={4} wrap>
          {readOnly && <ReadOnlyMark testId="graphs-read-only" />}
          {writable && (
            <Dropdown
              trigger={['click']}
              disabled={full}
              menu={{
                items: graphs.library.isLoading
                  ? [{ key: '', label: t('app.loading'), disabled: true }]
                  : library.length > 0
                    ? library.map((g) => ({
                        key: g.id,
                        label: (
                          <span className="yyp-graphs__choice">
                            <img src={g.url} alt="" />
                            <span>{g.title}</span>
                          </span>
                        ),
                      }))
                    : [{ key: '', label: t('report.graphs.noneInOrg'), disabled: true }],
                onClick: ({ key }) => key && graphs.place.mutate(key),
              }}
            >
              <Button size="small" icon={<PlusOutlined />} loading={graphs.place.isPending}>
                {t('report.graphs.place')} <DownOutlined />
              </Button>
            </Dropdown>
          )}
          {canManage && (
            <Tooltip title={t('report.graphs.uploadTip')}>
              <Button size="small" icon={<UploadOutlined />} onClick={() => setUploading(true)}>
                {t('report.graphs.upload')}
              </Button>
            </Tooltip>
          )}
        </Space>
      </div>
      {writable && placed.length > 0 && (
        <div className="yyp-graphs__tools">
          <Typography.Text type="secondary" className="yyp-report__hint">
            {t('report.graphs.hint')}
          </Typography.Text>
          <div className="yyp-graphs__colors" role="radiogroup" aria-label={t('report.graphs.color')}>
            {MARK_COLORS.map((c) => (
              <button
                key={c.key}
                type="button"
                role="radio"
                aria-checked={color === c.value}
                aria-label={t(`report.graphs.colors.${c.key}`)}
                title={t(`report.graphs.colors.${c.key}`)}
                className="yyp-graphs__swatch"
                style={{ background: c.value }}
                onClick={() => setColor(c.value)}
              />
            ))}
          </div>
        </div>
      )}
      {graphs.placed.isError && (
        <LoadFailedAlert error={graphs.placed.error} onRetry={() => void graphs.placed.refetch()} />
      )}
      {graphs.placed.data && placed.length === 0 && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('report.graphs.empty')} />
      )}
      <ol className="yyp-stack-list">
        {placed.map((graph) => (
          <li key={graph.id} className="yyp-graphs__item" data-testid="sample-graph">
            <div className="yyp-graphs__head">
              <Typography.Text strong ellipsis className="yyp-graphs__title">
                {graph.title}
              </Typography.Text>
              <Typography.Text type="secondary" className="yyp-report__hint" data-testid="sample-mark-count">
                {t('report.graphs.marks', { count: graph.points.length })}
              </Typography.Text>
            </div>
            <MarkedGraph
              graph={graph}
              writable={writable}
              color={color}
              onChange={(points) => graphs.patch.mutate({ id: graph.id, change: { points } })}
            />
            <div className="yyp-report__snap-tools">
              <Checkbox
                checked={graph.isPrinted}
                disabled={!writable}
                onChange={(e) => graphs.patch.mutate({ id: graph.id, change: { isPrinted: e.target.checked } })}
              >
                {t('report.snap.print')}
              </Checkbox>
              {writable && (
                <Popconfirm
                  title={t('report.graphs.removeConfirm')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => graphs.remove.mutateAsync(graph.id)}
                >
                  <Button size="small" type="text" danger icon={<DeleteOutlined />}>
                    {t('report.graphs.remove')}
                  </Button>
                </Popconfirm>
              )}
            </div>
          </li>
        ))}
      </ol>
      <SampleGraphUploadDialog
        open={uploading}
        pending={graphs.upload.isPending}
        onUpload={(title, file) => graphs.upload.mutateAsync({ title, file }).then(() => setUploading(false))}
        onClose={() => setUploading(false)}
      />
    </section>
  );
}

interface MarkedGraphProps {
  graph: ReportSampleGraph;
  writable: boolean;
  color: string;
  onChange: (points: SamplePoint[]) => void;
}

/**
 * The graph with its marks drawn over it in SVG, in the image's own pixels: a click adds the next
 * numbered mark in the chosen colour, a click on a mark (or Enter or Delete on it) removes it.
 */
function MarkedGraph({ graph, writable, color, onChange }: MarkedGraphProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const { width, height, points } = graph;
  const { radius, fontSize } = markSize(height);

  function handleClick(event: MouseEvent<SVGSVGElement>) {
    if (!writable) {
      return;
    }
    const at = toImagePoint(event.clientX, event.clientY, event.currentTarget.getBoundingClientRect(), graph);
    const next = at ? clickMarks(points, at, color, radius) : null;
    if (next) {
      onChange(next);
    } else if (at) {
      notify.info(t('report.graphs.full', { limit: MAX_SAMPLE_POINTS }));
    }
  }
  const removeAt = (index: number) => onChange(points.filter((_, i) => i !== index));
  const handleMarkKey = (index: number) => (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      removeAt(index);
    }
  };

  return (
    <div
      className="yyp-graphs__canvas"
      style={{ aspectRatio: `${width} / ${height}`, maxWidth: `${(420 * width) / height}px` }}
    >
      <img src={graph.url} alt={graph.title} draggable={false} />
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className={writable ? 'yyp-graphs__marks yyp-graphs__marks--writable' : 'yyp-graphs__marks'}
        onClick={handleClick}
        data-testid="sample-graph-canvas"
        aria-label={t('report.graphs.canvas', { title: graph.title })}
        role="group"
      >
        {points.map((p, index) => (
          <g
            key={`${p.label}-${index}`}
            data-testid="sample-mark"
            role={writable ? 'button' : undefined}
            tabIndex={writable ? 0 : undefined}
            aria-label={t('report.graphs.mark', { label: p.label })}
            onKeyDown={writable ? handleMarkKey(index) : undefined}
            onClick={
              writable
                ? (event) => {
                    event.stopPropagation();
                    removeAt(index);
                  }
                : undefined
            }
          >
            <SampleGraphMark point={p} radius={radius} fontSize={fontSize} imageWidth={width} />
          </g>
        ))}
      </svg>
    </div>
  );
}
