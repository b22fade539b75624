import { ArrowLeftOutlined } from '@ant-design/icons';
import type { ConsultationDetail } from '@yyp/contracts';
import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CasesSection } from './CasesSection';
import { FeeNotice } from './ConsultationFee';
import { ConsultationStatusTag } from './consultationLabels';
import { DetailActions } from './DetailActions';
import { ExamsSection } from './ExamsSection';
import { ResultSection, SuggestionSection } from './ExpertSections';
import { RequestSection, VisitSection } from './InfoSections';
import { LinksSection } from './LinksSection';
import { MembersSection } from './MembersSection';
import { RatingSection } from './RatingSection';
import { TracesSection } from './TracesSection';
import { VideoSlot } from './VideoSlot';
import './consultations.css';

const NONE: ReadonlySet<string> = new Set();

/**
 * A consultation's detail: the header with its status and the actions of `can` only, then its
 * parts, each editable only with its op. `readOnly` (the related view of a history consultation)
 * offers nothing but reading.
 */
export function ConsultationView({
  detail,
  readOnly = false,
  back,
}: {
  detail: ConsultationDetail;
  readOnly?: boolean;
  back: { to: string; label: string };
}) {
  const { t } = useTranslation();
  const can = readOnly ? NONE : new Set<string>(detail.can);
  return (
    <div className="yyp-consultations">
      <Link to={back.to}>
        <ArrowLeftOutlined /> {back.label}
      </Link>
      <div className="yyp-consultation__header">
        <div className="yyp-consultation__title">
          <Typography.Title level={3} style={{ margin: 0 }}>
            {detail.title}
          </Typography.Title>
          <ConsultationStatusTag status={detail.status} />
          {readOnly && <Typography.Text type="secondary">{t('consultations.detail.related')}</Typography.Text>}
        </div>
        {!readOnly && <DetailActions detail={detail} />}
      </div>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <div className="yyp-consultation__sections">
            {!readOnly && <FeeNotice detail={detail} />}
            {!readOnly && <VideoSlot detail={detail} />}
            <RequestSection detail={detail} editable={can.has('update')} />
            <ExamsSection detail={detail} can={can} />
            <CasesSection detail={detail} can={can} />
            <SuggestionSection detail={detail} can={can} />
            <ResultSection detail={detail} can={can} />
            <RatingSection detail={detail} can={can} />
          </div>
        </Col>
        <Col xs={24} xl={8}>
          <div className="yyp-consultation__sections">
            <MembersSection detail={detail} can={can} />
            <VisitSection detail={detail} editable={can.has('visit')} />
            <LinksSection detail={detail} can={can} readOnly={readOnly} />
            {!readOnly && <TracesSection id={detail.id} />}
          </div>
        </Col>
      </Row>
    </div>
  );
}
