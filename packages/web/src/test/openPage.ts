import { callKey, defaultDomainConfig, registryCalls } from '@yyp/contracts';
import { sessionStore } from '../api/sessionStore';
import { demoUser, installFakeApi, tokenFor, type FakeHandler } from './fakeApi';
import { bucketOf } from './registryFixtures';
import { renderApp } from './renderApp';
import { groupOf, organizationOf } from './tenancyFixtures';

/** Every desk action: the registrar's. */
export const ALL_DESK_ACTIONS = ['registry_create', 'registry_arrive', 'registry_update', 'registry_delete'];

/**
 * Organization b1 of group g1 on its `tab`, the demo doctor signed in (a group admin): the fake API
 * answers the domain, the caller, the group and the organization, then `handlers`.
 */
export function openOrganizationTab(tab: string, handlers: Record<string, FakeHandler>) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser() }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf()] }),
    'GET groups/g1': () => ({ status: 200, body: groupOf() }),
    'GET buckets/b1': () => ({ status: 200, body: organizationOf() }),
    ...handlers,
  });
  sessionStore.signIn('doctor', tokenFor('doctor'));
  renderApp(`/groups/g1/organizations/b1?tab=${tab}`);
  return api;
}

/**
 * /registry, the registrar Zhao signed in (a member of g1) holding `actions` at the desk of b1: the
 * fake API answers the domain, the caller, the groups and the desk's organizations, then `handlers`.
 */
export function openRegistry(handlers: Record<string, FakeHandler>, actions: string[] = ALL_DESK_ACTIONS) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'registrar', name: 'Zhao' }) }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0 })] }),
    [callKey(registryCalls.buckets)]: () => ({ status: 200, body: [bucketOf(actions)] }),
    ...handlers,
  });
  sessionStore.signIn('registrar', tokenFor('registrar'));
  renderApp('/registry');
  return api;
}
