import { lazy, Suspense, useEffect, useState } from 'react';
import { Spin } from 'antd';
import type { ActionName, CaseRef } from './useCaseActions';

// The case detail (overview, files, gallery, image editor) is a chunk of its own: a list draws
// its rows without it, and it loads when a row is first opened (or once the list is idle).
const loadDetail = () => import('./CaseDetail');
const CaseDetailDrawer = lazy(() => loadDetail().then((m) => ({ default: m.CaseDetailDrawer })));

interface Props {
  id: number | null;
  onClose: () => void;
  onAction: (a: ActionName, c: CaseRef) => void;
}

/**
 * CaseDetail's drawer, loaded on first open (a full-screen spinner meanwhile) and kept mounted
 * from then on, so closing animates and hands focus back as the drawer always did.
 */
export function LazyCaseDetailDrawer(props: Props) {
  const [wanted, setWanted] = useState(props.id !== null);
  if (props.id !== null && !wanted) setWanted(true);
  useEffect(() => {
    // Fetch the chunk ahead of the first click, well after the list has drawn its rows.
    const timer = window.setTimeout(() => {
      const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 0));
      idle(() => void loadDetail().catch(() => undefined));
    }, 3000);
    return () => window.clearTimeout(timer);
  }, []);
  if (!wanted) return null;
  return (
    <Suspense fallback={<Spin fullscreen />}>
      <CaseDetailDrawer {...props} />
    </Suspense>
  );
}
