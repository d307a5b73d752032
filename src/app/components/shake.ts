// The 200 ms shake of application-spec §5 for a form that is not a dialog (sign-up, password
// reset): const [shakeClass, shake] = useShake(); <form className={shakeClass}> … shake().
// Dialogs shake through useDialog().shake().
import { useCallback, useRef, useState } from 'react';
import { SHAKE_MS } from '../developerMode';

export function useShake(): [string, () => void] {
  const [shaking, setShaking] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const shake = useCallback(() => {
    clearTimeout(timer.current);
    setShaking(true);
    timer.current = setTimeout(() => setShaking(false), SHAKE_MS);
  }, []);
  return [shaking ? 'shake' : '', shake];
}
