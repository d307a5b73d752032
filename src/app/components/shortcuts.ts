// The main screen's keyboard shortcuts, for every feature that has one (the answer form's keys,
// N, the spacebar, and the letters printed on the buttons): a key belongs to them when it is not
// typed into a field and no dialog is open.
import { useEffect } from 'react';

/**
 * Whether a key press belongs to the page's shortcuts: not typed into a field, and no dialog open
 * (one closing, fading out, is settled already and takes no more keys).
 */
export function isShortcut(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return false;
  const target = event.target as HTMLElement | null;
  if (target?.closest('input, textarea, select, [contenteditable="true"]')) return false;
  return !document.querySelector('.dialog-overlay:not([data-closing])');
}

/** Runs `action` on `key` (lower case, as printed on its button) when it is a shortcut (isShortcut). */
export function useShortcut(key: string, action: () => void): void {
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== key || !isShortcut(event)) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [key, action]);
}
