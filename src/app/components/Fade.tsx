// The page fade of application-spec §4 and §9: each routed page fades in over 0.2 s when the
// location's path changes. Usage, in the layout route: <PageFade /> where an <Outlet /> would
// go. The spec's fadeOut of the old page is left out on purpose: keeping the old page mounted
// while the location has moved on lets it act on the new location (the access gate's redirect
// to /login fired again during the fade), so the old page leaves at once. Under
// prefers-reduced-motion the CSS drops the animation.
import { useLocation, useOutlet } from 'react-router-dom';

export function PageFade() {
  const location = useLocation();
  const outlet = useOutlet();
  return (
    <div key={location.pathname} className="page-fade fadeIn" data-testid="page-fade">
      {outlet}
    </div>
  );
}
