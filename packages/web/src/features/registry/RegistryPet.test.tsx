// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { callKey, defaultDomainConfig, registryCalls } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { demoUser, installFakeApi, tokenFor } from '../../test/fakeApi';
import { buttonByText, findOverlay } from '../../test/queries';
import { renderApp } from '../../test/renderApp';
import { bucketOf } from '../../test/registryFixtures';
import { groupOf } from '../../test/tenancyFixtures';

/** A pet domain's desk (spec 000 §3 Pet gender, Animal variant): the form registers animals. */
function signedIn(isPet: boolean) {
  const api = installFakeApi({
    'GET domain': () => ({ status: 200, body: { ...defaultDomainConfig, isPet } }),
    'GET accounts/me': () => ({ status: 200, body: demoUser({ username: 'registrar', name: 'Zhao' }) }),
    'GET groups/mine': () => ({ status: 200, body: [groupOf({ accessLevel: 0 })] }),
    [callKey(registryCalls.buckets)]: () => ({ status: 200, body: [bucketOf(['registry_create'])] }),
    [callKey(registryCalls.query)]: () => ({ status: 200, body: { items: [], count: 0 } }),
    [callKey(registryCalls.create)]: () => ({ status: 201, body: { exams: [{ accessionNumber: 'A1' }] } }),
  });
  sessionStore.signIn('registrar', tokenFor('registrar'));
  renderApp('/registry');
  return api;
}

async function openForm() {
  await screen.findByText('No scheduled exams', {}, { timeout: 15_000 });
  fireEvent.keyDown(window, { key: 'F2' });
  return findOverlay('Register a patient');
}

describe('/registry in a pet domain', () => {
  it(
    'registers an animal: pet genders, species required, breed, owner and history sent',
    { timeout: 60_000 },
    async () => {
      const api = signedIn(true);
      const drawer = await openForm();
      const user = userEvent.setup();
      await user.type(within(drawer).getByLabelText('Name'), 'Doudou');
      await user.click(within(drawer).getByLabelText('Sex'));
      await user.click(await screen.findByText('Female, spayed'));
      await user.type(within(drawer).getByLabelText('Modality'), 'DX');
      // Species is required: nothing is sent without it.
      await user.click(buttonByText('Register', drawer));
      await within(drawer).findByText('Enter the species');
      expect(api.requests.some((r) => r.path === 'registry')).toBe(false);
      await user.type(within(drawer).getByLabelText('Species'), 'Dog');
      await user.type(within(drawer).getByLabelText('Breed'), 'Corgi');
      await user.type(within(drawer).getByLabelText('Responsible person (owner)'), 'Wang Fang');
      await user.type(within(drawer).getByLabelText('Disease history'), 'Hip dysplasia');
      await user.click(buttonByText('Register', drawer));
      await waitFor(() => expect(api.requests.some((r) => r.path === 'registry')).toBe(true), { timeout: 5_000 });
      expect(api.requests.find((r) => r.path === 'registry')?.body).toMatchObject({
        patient: {
          name: 'Doudou',
          gender: 'FS',
          animal: { species: 'Dog', breed: 'Corgi', owner: 'Wang Fang', diseaseHistory: 'Hip dysplasia' },
        },
        exams: [{ modality: 'DX' }],
      });
    },
  );

  it('asks nothing about animals outside a pet domain, and offers no pet genders', { timeout: 60_000 }, async () => {
    signedIn(false);
    const drawer = await openForm();
    expect(within(drawer).queryByLabelText('Species')).toBeNull();
    await userEvent.setup().click(within(drawer).getByLabelText('Sex'));
    await screen.findByText('Female');
    expect(screen.queryByText('Female, spayed')).toBeNull();
  });
});
