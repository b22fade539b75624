import type { Group } from '@yyp/contracts';
import { Card, Steps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeading } from '../../../ui/PageHeading';
import type { AddedPerson } from '../members/types';
import { useRefreshGroups } from '../../../shared/groups/useGroups';
import { CheckAccountStep } from './CheckAccountStep';
import { InviteMembersStep } from './InviteMembersStep';
import { SetupGroupStep } from './SetupGroupStep';

type WizardStep = 0 | 1 | 2;

/** /groups/create: the 3-step group creation wizard of spec 000 §2. */
export function CreateGroupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const refreshGroups = useRefreshGroups();
  const [step, setStep] = useState<WizardStep>(0);
  const [group, setGroup] = useState<Group | null>(null);
  const [added, setAdded] = useState<AddedPerson[]>([]);

  function handleCreated(created: Group) {
    setGroup(created);
    setStep(2);
    void refreshGroups();
  }

  function handleAdded(people: AddedPerson[]) {
    setAdded((previous) => [...previous, ...people.filter((p) => !previous.some((q) => q.accountId === p.accountId))]);
  }

  function handleFinish() {
    if (group) {
      void refreshGroups();
      void navigate(`/groups/${encodeURIComponent(group.id)}`);
    }
  }

  return (
    <div className="yyp-page yyp-page--narrow">
      <PageHeading title={t('groupCreate.title')} description={t('groupCreate.subtitle')} />
      <Card variant="borderless">
        <Steps
          current={step}
          className="yyp-wizard-steps"
          items={[
            { title: t('groupCreate.stepAccount') },
            { title: t('groupCreate.stepSetup') },
            { title: t('groupCreate.stepInvite') },
          ]}
        />
        {step === 0 && <CheckAccountStep onNext={() => setStep(1)} />}
        {step === 1 && <SetupGroupStep onBack={() => setStep(0)} onCreated={handleCreated} />}
        {step === 2 && group && (
          <InviteMembersStep group={group} added={added} onAdded={handleAdded} onFinish={handleFinish} />
        )}
      </Card>
    </div>
  );
}
