// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { PermissionEntry } from '@yyp/contracts';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../api/sessionStore';
import { installFakeApi, tokenFor } from '../../test/fakeApi';
import { heldActions, useHeldActions, useHolds, usePermissions } from './permissions';

const entry = (bucketId: string, actions: string[], accessLevel = 'member'): PermissionEntry => ({
  bucketId,
  groupId: 'g1',
  type: 1,
  accessLevel,
  actions,
});

describe('heldActions', () => {
  it('answers per organization and anywhere', () => {
    const held = heldActions([
      entry('b1', ['exam_get', 'export_exams']),
      entry('b2', ['report_upsert'], 'collaborator'),
    ]);
    expect(held.known).toBe(true);
    expect(held.can('b1', 'export_exams')).toBe(true);
    expect(held.can('b2', 'export_exams')).toBe(false);
    expect(held.can('b3', 'exam_get')).toBe(false);
    expect(held.can(null, 'exam_get')).toBe(false);
    expect(held.anywhere('report_upsert')).toBe(true);
    expect(held.anywhere('exam_delete')).toBe(false);
    expect(held.bucketsWith('exam_get')).toEqual(['b1']);
    expect([...held.actionsIn('b2')]).toEqual(['report_upsert']);
  });

  it('holds nothing until the answer is here', () => {
    const held = heldActions(undefined);
    expect(held.known).toBe(false);
    expect(held.anywhere('exam_get')).toBe(false);
    expect(held.actionsIn('b1').size).toBe(0);
  });

  it('joins two entries of one organization', () => {
    const held = heldActions([entry('b1', ['exam_get']), entry('b1', ['exam_delete'])]);
    expect(held.can('b1', 'exam_get') && held.can('b1', 'exam_delete')).toBe(true);
  });
});

describe('permission hooks', () => {
  function wrapper() {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    return ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
  }

  it('ask accounts/me/permissions once for every hook of the screen', async () => {
    const api = installFakeApi({
      'GET accounts/me/permissions': () => ({
        status: 200,
        body: [entry('b1', ['exam_get', 'report_upsert']), entry('b2', ['exam_delete'])],
      }),
    });
    sessionStore.signIn('doctor', tokenFor('doctor'));
    const { result } = renderHook(
      () => ({
        all: usePermissions(),
        deleteHere: useHolds('exam_delete', 'b1'),
        deleteAnywhere: useHolds('exam_delete'),
        inB1: useHeldActions('b1'),
      }),
      { wrapper: wrapper() },
    );
    expect(result.current.all.known).toBe(false);
    expect(result.current.deleteAnywhere).toBe(false);
    await waitFor(() => expect(result.current.all.known).toBe(true));
    expect(result.current.deleteHere).toBe(false);
    expect(result.current.deleteAnywhere).toBe(true);
    expect([...result.current.inB1].sort()).toEqual(['exam_get', 'report_upsert']);
    expect(api.requests.filter((r) => r.path === 'accounts/me/permissions')).toHaveLength(1);
  });

  it('asks nothing while signed out', () => {
    const api = installFakeApi({});
    sessionStore.signOut();
    const { result } = renderHook(() => useHolds('exam_get', 'b1'), { wrapper: wrapper() });
    expect(result.current).toBe(false);
    expect(api.requests).toHaveLength(0);
  });
});
