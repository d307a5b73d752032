// Hash routes (application-spec §2). No errorElement is set on purpose: React Router's
// default error page is headed 'Unexpected Application Error!', as the spec asks.
import { Outlet, createHashRouter } from 'react-router-dom';
import { CameraIndicator } from './components/globe/CameraIndicator';
import { GlobeView } from './components/globe/GlobeView';
import { AccessGate } from './features/gate/AccessGate';
import { HomePage } from './features/home/HomePage';
import { LoginPage } from './features/login/LoginPage';

/** The globe stays mounted across routes; screens are drawn over it. */
function Shell() {
  return (
    <GlobeView>
      <div className="screen">
        <Outlet />
      </div>
      <CameraIndicator />
    </GlobeView>
  );
}

export function createRouter() {
  return createHashRouter([
    {
      element: <Shell />,
      children: [
        {
          path: '/',
          element: (
            <AccessGate>
              <HomePage />
            </AccessGate>
          ),
        },
        { path: '/login', element: <LoginPage /> },
      ],
    },
  ]);
}
