// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { defaultDomainConfig, type BucketPlan } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { renderApp } from '../../test/renderApp';
import { groupOf, organizationOf, orgMemberOf } from '../../test/tenancyFixtures';

function openOverview(plan: BucketPlan, isPrivate = true) {
  installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf()] }),
    'GET groups/g1': () => ({ status: 200, body: groupOf() }),
    'GET buckets/b1': () => ({ status: 200, body: { ...organizationOf(), isPrivate } }),
    'GET buckets/b1/members': () => ({ status: 200, body: [orgMemberOf()] }),
    'GET buckets/b1/plan': () => ({ status: 200, body: plan }),
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  renderApp('/groups/g1/organizations/b1?tab=overview');
}

describe('organization plan card', () => {
  it('shows the studies used of the quota and the end of validity', async () => {
    openOverview({
      kind: 'period',
      quota: 1000,
      used: 250,
      expiresAt: '2027-11-22T08:00:00.000Z',
      isPrivate: true,
      blocked: null,
    });
    expect(await screen.findByText('250 of 1000')).toBeTruthy();
    expect(screen.getByText('Subscription (period)')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says why uploads are refused when the quota is used up', async () => {
    openOverview({ kind: 'oneTime', quota: 10, used: 10, expiresAt: null, isPrivate: true, blocked: 'BucketFull' });
    expect(await screen.findByText(/has used its plan's whole quota/)).toBeTruthy();
    expect(screen.getByText(/refused until the plan is renewed/)).toBeTruthy();
    expect(screen.getByText('No end date')).toBeTruthy();
  });

  it('tells a public organization that the plan does not limit it', async () => {
    openOverview({ kind: null, quota: null, used: 3, expiresAt: null, isPrivate: false, blocked: null }, false);
    expect(await screen.findByText('3 (no limit)')).toBeTruthy();
    expect(screen.getByText(/A public organization receives uploads whatever its plan/)).toBeTruthy();
  });
});
