import type { UseQueryResult } from '@tanstack/react-query';
import type { ExamDetail, Report, WorklistItem } from '@yyp/contracts';
import { Skeleton, Tabs } from 'antd';
import type { ReactNode, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { CommentsTab } from './panel/CommentsTab';
import { HistoryTab } from './panel/HistoryTab';
import { InfoTab } from './panel/InfoTab';
import { KeyImagesTab } from './panel/KeyImagesTab';
import { SampleGraphsSection } from './panel/SampleGraphsSection';
import { TraceTab } from './panel/TraceTab';
import { WorklistTab } from './panel/WorklistTab';
import { ReportSafetyPanel } from './safety/ReportSafetyPanel';
import { isFromExperts } from './fromExperts';
import type { KeyImages } from './useKeyImages';

export const SIDE_TABS = ['info', 'history', 'worklist', 'snap', 'trace', 'comments'] as const;
export type SideTab = (typeof SIDE_TABS)[number];

interface ReportSidePanelProps {
  tab: SideTab;
  onTab: (tab: SideTab) => void;
  examId: string;
  exam: ExamDetail | undefined;
  report: Report;
  writable: boolean;
  keyImages: KeyImages;
  fileInput: RefObject<HTMLInputElement | null>;
  worklist: UseQueryResult<WorklistItem[]>;
  onOpenExam: (examId: string) => void;
  onOpenViewer: () => void;
  descTemplates?: (apply: (text: string) => void) => ReactNode;
}

/** The right panel of spec 000 §2: info, history, worklist, snap, trace and comments. */
export function ReportSidePanel(props: ReportSidePanelProps) {
  const { t } = useTranslation();
  const { report, exam } = props;
  const content: Record<SideTab, ReactNode> = {
    info: (
      <>
        <ReportSafetyPanel report={report} />
        {exam ? <InfoTab exam={exam} report={report} /> : <Skeleton active />}
      </>
    ),
    history: <HistoryTab examId={props.examId} />,
    worklist: <WorklistTab worklist={props.worklist} currentExamId={props.examId} onOpen={props.onOpenExam} />,
    snap: (
      <>
        <KeyImagesTab
          keyImages={props.keyImages}
          writable={props.writable}
          readOnly={isFromExperts(report)}
          hasImages={exam?.hasImage ?? false}
          fileInput={props.fileInput}
          onOpenViewer={props.onOpenViewer}
          descTemplates={props.descTemplates}
        />
        <SampleGraphsSection
          reportId={report.id}
          bucketId={report.bucketId}
          writable={props.writable}
          readOnly={isFromExperts(report)}
        />
      </>
    ),
    trace: <TraceTab reportId={report.id} canTrace={report.canTrace} />,
    comments: <CommentsTab report={report} />,
  };
  return (
    <aside className="yyp-report__side">
      <Tabs
        size="small"
        activeKey={props.tab}
        onChange={(key) => props.onTab(key as SideTab)}
        tabBarGutter={14}
        items={SIDE_TABS.map((key) => ({ key, label: t(`report.tabs.${key}`), children: content[key] }))}
        destroyOnHidden
      />
    </aside>
  );
}
