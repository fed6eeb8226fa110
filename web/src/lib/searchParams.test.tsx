import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { useSearchParams } from './searchParams';

function Screen() {
  const [sp, setSp] = useSearchParams();
  const nextPage = () =>
    setSp((now) => {
      const next = new URLSearchParams(now);
      next.set('page', '2');
      return next;
    }, { replace: true });
  return (
    <>
      <span data-testid="view">{sp.get('view') ?? 'list'}</span>
      <button onClick={() => setSp({ view: 'archive' }, { replace: true })}>switch</button>
      <button onClick={nextPage}>page</button>
    </>
  );
}

function start() {
  const router = createMemoryRouter([{ path: '/a', element: <Screen /> }, { path: '/b', element: <p>elsewhere</p> }], { initialEntries: ['/a?page=1'] });
  render(<RouterProvider router={router} />);
  return router;
}

// Each act below holds React's render back, as the router's transition does on a busy page: the
// second write comes while the screen still shows the address before the first.
describe('useSearchParams', () => {
  it('hands a functional update the address as the router has it now', () => {
    const router = start();
    act(() => {
      fireEvent.click(screen.getByText('switch'));
      fireEvent.click(screen.getByText('page'));
    });
    expect(router.state.location.search).toBe('?view=archive&page=2');
    expect(screen.getByTestId('view')).toHaveTextContent('archive');
  });

  it('drops a write from a screen the router has already left', () => {
    const router = start();
    act(() => {
      void router.navigate('/b?from=menu');
      fireEvent.click(screen.getByText('page'));
    });
    expect(router.state.location.pathname).toBe('/b');
    expect(router.state.location.search).toBe('?from=menu');
    expect(screen.getByText('elsewhere')).toBeInTheDocument();
  });
});
