// The target markers' visibility (application-spec §2, §9): the spacebar shows or hides them, and
// its first use warns how to get them back. Markers are drawn down to a field of view of
// 0.0003 rad, so that they leave a zoomed-in galaxy clear; once the volunteer has used the
// spacebar (kept in localStorage, for every later visit) they are drawn down to 0.000001 rad and
// the volunteer hides them by hand.
import { useCallback, useEffect, useState } from 'react';
import { isShortcut } from '../../components/shortcuts';

export const MARKER_MIN_FOVY = 0.0003;
export const MARKER_MIN_FOVY_AFTER_TOGGLE = 0.000001;
export const MARKER_TOGGLE_STORAGE_KEY = 'galaxy-cruise.markers-toggled';

function toggledBefore(): boolean {
  try {
    return localStorage.getItem(MARKER_TOGGLE_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

/** The markers' state, and the spacebar's listener; `warn` is called on the first use ever. */
export function useMarkers(warn: () => void): { shown: boolean; minFovy: number } {
  const [shown, setShown] = useState(true);
  const [toggled, setToggled] = useState(toggledBefore);

  const toggle = useCallback(() => {
    setShown((value) => !value);
    if (toggledBefore()) return;
    try {
      localStorage.setItem(MARKER_TOGGLE_STORAGE_KEY, '1');
    } catch {
      // A browser without storage warns again on its next visit; the toggle itself still works.
    }
    setToggled(true);
    warn();
  }, [warn]);

  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (event.key !== ' ' || !isShortcut(event)) return;
      // On a focused control the spacebar is that control's own (a button's click).
      if (
        (event.target as HTMLElement | null)?.closest(
          'button, a, summary, [role="button"], [role="radio"], [role="tab"]',
        )
      )
        return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [toggle]);

  return { shown, minFovy: toggled ? MARKER_MIN_FOVY_AFTER_TOGGLE : MARKER_MIN_FOVY };
}
