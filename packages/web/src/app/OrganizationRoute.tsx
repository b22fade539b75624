import { CallQueuesCard } from '../features/calling/CallQueuesCard';
import { OrganizationPage } from '../features/organizations/OrganizationPage';
import { PrintTemplateCard } from '../features/reports/print/PrintTemplateCard';

/**
 * The organization page with the reports feature's print template card and the calling feature's
 * call queues card in its settings tab: one feature's card inside another's screen is composed here
 * (a feature imports no other feature).
 */
export function OrganizationRoute() {
  return (
    <OrganizationPage
      printTemplateCard={(organization) => <PrintTemplateCard organization={organization} />}
      callQueuesCard={(organization, group) => (
        <CallQueuesCard bucketId={organization.id} enabled={group.settings.enableCalling === true} />
      )}
    />
  );
}
