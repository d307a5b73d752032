// Flash messages (application-spec §2, §9): a short message over the screen for FLASH_MS
// (1000 ms, 200 ms in developer mode), announced to screen readers. Usage:
//
//   const flash = useFlash();
//   flash(t('signup.sent'));
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { FLASH_MS } from '../developerMode';

type Show = (message: string, durationMs?: number) => void;
const FlashContext = createContext<Show | null>(null);

export function FlashProvider({ children }: { children: ReactNode }) {
  const [messages, setMessages] = useState<{ id: number; text: string }[]>([]);
  const nextId = useRef(1);
  const show = useCallback<Show>((text, durationMs = FLASH_MS) => {
    const id = nextId.current++;
    setMessages((list) => [...list, { id, text }]);
    setTimeout(() => setMessages((list) => list.filter((message) => message.id !== id)), durationMs);
  }, []);
  return (
    <FlashContext.Provider value={show}>
      {children}
      <div className="flash-region" role="status" aria-live="polite">
        {messages.map((message) => (
          <p key={message.id} className="flash">
            {message.text}
          </p>
        ))}
      </div>
    </FlashContext.Provider>
  );
}

export function useFlash(): Show {
  const show = useContext(FlashContext);
  if (!show) throw new Error('useFlash() needs a <FlashProvider> above it');
  return show;
}
