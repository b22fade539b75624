import type { Group } from '@yyp/contracts';
import { Col, Row } from 'antd';
import { AssignRulesCard } from '../settings/AssignRulesCard';
import { ColorRulesCard } from '../settings/ColorRulesCard';
import { ConsultationTargetsCard } from '../settings/ConsultationTargetsCard';
import { DeleteGroupCard } from '../settings/DeleteGroupCard';
import { GroupAiServiceCard } from '../settings/GroupAiServiceCard';
import { GroupAttributesCard } from '../settings/GroupAttributesCard';
import { GroupFeaturesCard } from '../settings/GroupFeaturesCard';
import { GroupGeneralCard } from '../settings/GroupGeneralCard';
import { GroupSsoCard } from '../settings/GroupSsoCard';
import { GroupTurnaroundCard } from '../settings/GroupTurnaroundCard';
import { RatingConfigCard } from '../settings/RatingConfigCard';
import { ReportTableColorsCard } from '../settings/ReportTableColorsCard';

/** Group settings (administrators only): name, features, report attributes, AI, turnaround target, rules, deletion. */
export function GroupSettingsTab({ group }: { group: Group }) {
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={10}>
        <div className="yyp-stack">
          <GroupGeneralCard group={group} />
          <GroupAttributesCard group={group} />
          <GroupAiServiceCard group={group} />
          <GroupTurnaroundCard group={group} />
        </div>
      </Col>
      <Col xs={24} xl={14}>
        <GroupFeaturesCard group={group} />
      </Col>
      {group.settings.enableConsultation === true && (
        <>
          <Col xs={24} xl={14}>
            <ConsultationTargetsCard group={group} />
          </Col>
          <Col xs={24} xl={10}>
            <RatingConfigCard group={group} />
          </Col>
        </>
      )}
      <Col xs={24} xl={14}>
        <GroupSsoCard groupId={group.id} />
      </Col>
      <Col span={24}>
        <AssignRulesCard groupId={group.id} />
      </Col>
      <Col span={24}>
        <ColorRulesCard groupId={group.id} />
      </Col>
      <Col span={24}>
        <ReportTableColorsCard groupId={group.id} />
      </Col>
      <Col span={24}>
        <DeleteGroupCard group={group} />
      </Col>
    </Row>
  );
}
