// A key of the main screen's shortcuts (printed on its button): runs `action` on that key, not
// while typing or while a dialog is open (isShortcut).
import { useEffect } from 'react';
import { isShortcut } from './AnswerForm';

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
