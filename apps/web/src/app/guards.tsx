import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { canEditProfile, isSessionValid } from '../features/auth/rules';
import { useAuthUser } from '../features/auth/session';
import { DEFAULT_ROUTE } from './routeMemory';
import { LOGIN_ROUTE } from './routeTitles';

interface GuardProps {
  children: ReactNode;
}

/** Valid login: expiration later than now and a stored user token. */
export function RequireSession({ children }: GuardProps) {
  const user = useAuthUser();
  const location = useLocation();
  if (!isSessionValid(user, Date.now()))
    return <Navigate to={LOGIN_ROUTE} replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}

/** Only local users other than demo may edit their profile. */
export function RequireMainUser({ children }: GuardProps) {
  const user = useAuthUser();
  if (!canEditProfile(user)) return <Navigate to={DEFAULT_ROUTE} replace />;
  return <>{children}</>;
}
