import { RouterProvider } from 'react-router/dom';
import { createBrowserRouter } from 'react-router';
import { createQueryClient } from '../api/queryClient';
import { AppProviders } from './AppProviders';
import { routes } from './routes';

const queryClient = createQueryClient();
const router = createBrowserRouter(routes);

export function App() {
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
