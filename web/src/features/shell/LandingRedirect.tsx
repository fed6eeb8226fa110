import { Navigate } from 'react-router';
import { useMenu } from '../../lib/appData';
import { firstLeaf } from '../../lib/menu';
import { FullPageSpin } from '../../components/ui/FullPageSpin';

/** /manage → the first child of the first menu. */
export default function LandingRedirect() {
  const { data, isError } = useMenu();
  if (isError) return <Navigate to="/error" replace />;
  if (!data) return <FullPageSpin />;
  return <Navigate to={firstLeaf(data) ?? '/account'} replace />;
}
