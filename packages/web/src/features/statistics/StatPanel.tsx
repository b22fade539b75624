import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { statRangeProblem, type StatKind, type StatRow } from '@yyp/contracts';
import { Alert, Button, Empty, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/errorMessage';
import { exportStatTable, fetchStatTable, fetchTurnaround } from '../../api/statistics';
import { useNotify } from '../../shared/notify/useNotify';
import { studiesDrillLink } from '../../shared/links/studyLinks';
import { usePermissions } from '../../shared/permissions/permissions';
import { saveBlob } from '../../ui/saveBlob';
import { ReportDetailDrawer } from './ReportDetailDrawer';
import { StatChart } from './StatChart';
import { StatTableView } from './StatTableView';
import { TurnaroundLists } from './TurnaroundLists';
import { drillOf, drills, drillsToDoctor } from './statDrill';
import { queryOf, type StatSelection, type StatWords } from './statView';

/**
 * One statistic for the applied selection: the chart and, beside or under it, the table with its totals;
 * the export of the same query; the drill-down from a row or bar to its exams on /studies
 * (statDrill.ts); for the turnaround
 * the slowest and overdue exams below.
 */
export function StatPanel({
  kind,
  selection,
  groupId,
  words,
}: {
  kind: StatKind;
  selection: StatSelection;
  groupId: string | undefined;
  words: StatWords;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const held = usePermissions();
  const [doctor, setDoctor] = useState<StatRow | null>(null);
  const query = queryOf(kind, selection, groupId);
  const steps = { fromStep: selection.fromStep, toStep: selection.toStep };
  // The range rules of spec 000 §5, said before asking (the server enforces them all the same).
  const problem = statRangeProblem(kind, selection.from, selection.to);
  const table = useQuery({
    queryKey: ['statistics', kind, query, kind === 'turnaround' ? steps : null],
    queryFn: ({ signal }) =>
      kind === 'turnaround' ? fetchTurnaround({ ...query, ...steps }, signal) : fetchStatTable(kind, query, signal),
    enabled: problem === null,
    placeholderData: keepPreviousData,
  });
  const exporting = useMutation({
    mutationFn: () => exportStatTable(kind as Exclude<StatKind, 'turnaround'>, query),
    onSuccess: (blob) => saveBlob(blob, `statistics-${kind}-${selection.from}-${selection.to}.xlsx`),
    onError: notify.error,
  });

  const title = words.kind(kind);
  const data = table.data;
  // A row or bar opens its exams on /studies with the filters applied (not the row of no doctor, …)
  // when the caller may list the exams of every organization counted; a group admin who may not (no
  // exam_get there) sees a doctor's reports in the statistics' own list instead (report-detail,
  // which the statistic's action allows, masked and audited by the server).
  const canList = Boolean(data?.buckets.length) && data!.buckets.every((b) => held.can(b.id, 'exam_get'));
  const drill =
    data && canList && drills(kind, data.by)
      ? (row: StatRow) => {
          const found = drillOf(kind, data, query, row);
          if (found) void navigate(studiesDrillLink(found));
        }
      : data && !canList && drillsToDoctor(kind, data.by)
        ? (row: StatRow) => {
            if (row.key) setDoctor(row);
          }
        : undefined;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Text type="secondary">
          {drill ? t(canList ? 'studyList.drill.hint' : 'statistics.drillHint') : ' '}
        </Typography.Text>
        {kind !== 'turnaround' && (
          <Button onClick={() => exporting.mutate()} loading={exporting.isPending} disabled={problem !== null}>
            {t('statistics.export')}
          </Button>
        )}
      </Space>
      {problem !== null ? (
        <Alert type="error" showIcon title={t(`errors.${problem}`)} />
      ) : table.error ? (
        <Alert type="error" showIcon title={errorMessage(t, table.error)} />
      ) : !data ? (
        <Spin />
      ) : (
        <>
          {data.warning === 'rangeBeyondYear' && <Alert type="warning" showIcon title={t('statistics.beyondYear')} />}
          {data.rows.length === 0 ? (
            <Empty description={t('statistics.empty')} />
          ) : (
            // Side by side when the table fits beside the chart at its own width, else the table
            // under the chart at full width (statistics.css): long labels (Tibetan) never clip it.
            <div className="yyp-stat-panel">
              <div className="yyp-stat-panel__chart">
                <StatChart table={data} title={title} words={words} onRowClick={drill} />
              </div>
              <div className="yyp-stat-panel__table">
                <StatTableView table={data} words={words} onRowClick={drill} />
              </div>
            </div>
          )}
        </>
      )}
      {kind === 'turnaround' && problem === null && <TurnaroundLists query={{ ...query, ...steps }} />}
      <ReportDetailDrawer
        key={doctor?.key ?? ''}
        doctor={doctor && { id: doctor.key, name: words.row(doctor) }}
        query={query}
        initialRole="written"
        onClose={() => setDoctor(null)}
      />
    </Space>
  );
}
