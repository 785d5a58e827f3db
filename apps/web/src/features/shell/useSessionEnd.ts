import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { setUnauthenticatedHandler } from '../../api/queryClient';
import { LOGIN_ROUTE } from '../../app/routeTitles';
import { signOut } from '../auth/signOut';
import { useAuthUser } from '../auth/session';

/** Longest single timer browsers honour (about 24.8 days); sessions last an hour, far below it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Ends the session in the browser when it ends on the server: at the login expiration, or as soon
 * as a call is refused as unauthenticated. Either way the user lands on /login.
 */
export function useSessionEnd(): void {
  const navigate = useNavigate();
  const user = useAuthUser();
  const expiration = user?.expiration;

  useEffect(() => {
    const end = () => void signOut().then(() => navigate(LOGIN_ROUTE, { replace: true }));
    setUnauthenticatedHandler(end);
    return () => setUnauthenticatedHandler(null);
  }, [navigate]);

  useEffect(() => {
    if (expiration === undefined) return;
    const timer = setTimeout(
      () => {
        if (Date.now() >= expiration) void signOut().then(() => navigate(LOGIN_ROUTE, { replace: true }));
      },
      Math.min(Math.max(expiration - Date.now(), 0), MAX_TIMER_MS),
    );
    return () => clearTimeout(timer);
  }, [expiration, navigate]);
}
