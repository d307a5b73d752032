// The page fade of application-spec §4 and §9: the routed page fades in over 0.2 s; when the
// location changes the old page fades out (fadeIn becomes fadeOut), and when that animation
// ends the new page fades in. Usage, in the layout route: <PageFade /> where an <Outlet /> would
// go. Under prefers-reduced-motion the swap is immediate.
import { useState } from 'react';
import { useLocation, useOutlet } from 'react-router-dom';

export function PageFade() {
  const location = useLocation();
  const outlet = useOutlet();
  const [reducedMotion] = useState(
    () => typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches,
  );
  // The page on show: its path and the element it was rendered from, kept so that it can still
  // be drawn while it fades out after the location has moved on.
  const [shown, setShown] = useState({ key: location.pathname, element: outlet });
  const changed = location.pathname !== shown.key;
  if (changed && reducedMotion) setShown({ key: location.pathname, element: outlet });
  return (
    <div
      className={`page-fade ${changed ? 'fadeOut' : 'fadeIn'}`}
      data-testid="page-fade"
      onAnimationEnd={(event) => {
        if (event.target === event.currentTarget && changed) setShown({ key: location.pathname, element: outlet });
      }}
    >
      {changed ? shown.element : outlet}
    </div>
  );
}
