import { createBrowserRouter, RouterProvider } from 'react-router';
import { routes } from './router';

const router = createBrowserRouter(routes);

/** The router; antd, the query cache and i18next are provided past sign-in (AppLayer). */
export function App() {
  return <RouterProvider router={router} />;
}
