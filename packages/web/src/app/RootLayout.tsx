import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
import { bindExpiryEnvironment, isPublicPath } from '../api/expiry';
import { sessionStore } from '../api/sessionStore';
import { InactivityNotice } from '../features/auth/InactivityNotice';
import { LoginExpiredModal } from '../features/auth/LoginExpiredModal';
import { useDomain } from '../shared/domain/useDomain';
import { useSessionState } from '../shared/session/useSessionState';

/**
 * Top of the route tree: connects the API client's session rules to the router, and hosts the
 * dialogs that may appear over any page (login expired, logged out for inactivity).
 */
export function RootLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const location = useLocation();
  const { expiryDialogOpen } = useSessionState();
  const { domain } = useDomain();
  const pathnameRef = useRef(location.pathname);
  const searchRef = useRef(location.search);

  useEffect(() => {
    pathnameRef.current = location.pathname;
    searchRef.current = location.search;
  }, [location.pathname, location.search]);

  useEffect(
    () =>
      bindExpiryEnvironment({
        pathname: () => pathnameRef.current,
        search: () => searchRef.current,
        navigate: (to) => {
          void navigate(to, { replace: true });
        },
      }),
    [navigate],
  );

  useEffect(() => {
    if (expiryDialogOpen && isPublicPath(location.pathname, location.search)) {
      sessionStore.closeExpiryDialog();
    }
  }, [expiryDialogOpen, location.pathname, location.search]);

  useEffect(() => {
    document.title = domain.displayName || t('app.defaultName');
  }, [domain.displayName, t]);

  return (
    <>
      {navigation.state === 'loading' && <div className="yyp-route-progress" role="progressbar" aria-busy="true" />}
      <Outlet />
      <LoginExpiredModal />
      <InactivityNotice />
    </>
  );
}
