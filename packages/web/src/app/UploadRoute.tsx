import { useSearchParams } from 'react-router';
import { AppShell } from './shell/AppShell';
import { PublicUploadPage } from '../features/upload/PublicUploadPage';
import { UploadPage } from '../features/upload/UploadPage';

/**
 * /upload decides by its query: with a token it is the public page of an upload link, even for a
 * signed-in user (the loader let it through); without, the signed-in wizard inside the app shell.
 */
export function UploadRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  if (token !== null) {
    return <PublicUploadPage key={token} token={token} />;
  }
  return (
    <AppShell>
      <UploadPage />
    </AppShell>
  );
}
