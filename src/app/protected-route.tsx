import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { Loader } from '../components/ui';
import { authStore } from '../stores/auth-store';

/** Login-required routes (SPEC.md §2): a loader while the user loads, then the page or a redirect to /. */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { user, is_init } = useSnapshot(authStore);
  if (is_init) return <Loader fill />;
  if (!user) return <Navigate to="/" replace />;
  return <>{children}</>;
}
