// Who may change a template or a term: public ones are the administrators',
// the others their owner's (as the server decides; this only hides buttons).
import { useAuthInfo } from '../../lib/appData';

export function useOwnership() {
  const info = useAuthInfo();
  const me = info.data?.user.id ?? 0;
  const isAdmin = (info.data?.roles ?? []).some((r) => r.role === 'admin' || r.role === 'root');
  const mayEdit = (x: { public: boolean; owner_id?: number | null }) => (x.public ? isAdmin : x.owner_id === me);
  return { isAdmin, mayEdit };
}
