import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from './api/client';
import { session } from './session';

/** Ends the session server-side (best effort), clears local state and goes to /login. */
export function useLogout() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await api.POST('/api/auth/logout');
    } catch {
      /* the session is cleared locally either way */
    }
    session.clear();
    qc.clear();
    navigate('/login', { replace: true });
  }, [qc, navigate]);
}
