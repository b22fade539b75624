import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/AppProviders';
import { routes } from '../app/routes';

export interface RenderAppOptions {
  /** Wrap the router, e.g. in a context provider that replaces a browser-only service. */
  wrap?: (app: ReactElement) => ReactElement;
}

/** Render the real route tree at `path` with a fresh query cache (no retries) and the real client. */
export function renderApp(path: string, options: RenderAppOptions = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const app = <RouterProvider router={router} />;
  const view = render(
    <AppProviders queryClient={queryClient}>
      {/* No animations: jsdom never finishes CSS transitions, so closing dialogs would linger. */}
      <ConfigProvider theme={{ token: { motion: false } }}>{options.wrap ? options.wrap(app) : app}</ConfigProvider>
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

/** Current path + search of a memory router. */
export function locationOf(router: ReturnType<typeof createMemoryRouter>): string {
  const { pathname, search } = router.state.location;
  return pathname + search;
}
