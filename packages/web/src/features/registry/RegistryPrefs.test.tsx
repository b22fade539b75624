// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callKey, defaultDomainConfig, hospitalDate, registryCalls, type RegistryQuery } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { buttonByText } from '../../test/queries';
import { renderApp } from '../../test/renderApp';
import { bucketOf } from '../../test/registryFixtures';
import { groupOf } from '../../test/tenancyFixtures';

/** Spec 000 §9 "stored preferences … registry filters": the desk finds its list as it left it. */
describe('/registry remembers the desk’s filters', () => {
  it(
    'opens on the stored organization, source, statuses and quick range, and stores a new choice',
    { timeout: 60_000 },
    async () => {
      const user = demoUser({ username: 'registrar', name: 'Zhao' });
      const api = installFakeApi({
        'GET domain': () => ({ status: 200, body: defaultDomainConfig }),
        'GET accounts/me': () => ({
          status: 200,
          body: {
            ...user,
            preferences: { registryFilters: { bucketId: 'b2', source: 'all', statuses: ['Arrived'], quickRange: 3 } },
          },
        }),
        'PATCH accounts/me': (r) => ({ status: 200, body: { ...user, ...(r.body as object) } }),
        'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0 })] }),
        [callKey(registryCalls.buckets)]: () => ({
          status: 200,
          body: [bucketOf(['registry_create']), { ...bucketOf(['registry_create']), id: 'b2', name: 'Ultrasound' }],
        }),
        [callKey(registryCalls.query)]: () => ({ status: 200, body: { items: [], count: 0 } }),
      });
      sessionStore.signIn('registrar', tokenFor('registrar'));
      renderApp('/registry');
      await screen.findByText('No scheduled exams', {}, { timeout: 15_000 });
      const queries = () => api.requests.filter((r) => r.path.endsWith('/registry/query'));
      // The first list asked is the stored one: no request with the defaults before it.
      expect(queries()[0]).toMatchObject({
        path: 'buckets/b2/registry/query',
        body: { source: 'all', statuses: ['Arrived'], from: hospitalDate(new Date()), to: hospitalDate(new Date(), 3) },
      });
      await userEvent.setup().click(buttonByText('Next 7 days'));
      await waitFor(() =>
        expect(api.requests.find((r) => r.path === 'accounts/me' && r.method === 'PATCH')?.body).toEqual({
          preferences: { registryFilters: { bucketId: 'b2', source: 'all', statuses: ['Arrived'], quickRange: 7 } },
        }),
      );
      expect((queries().at(-1)?.body as RegistryQuery).to).toBe(hospitalDate(new Date(), 7));
    },
  );
});
