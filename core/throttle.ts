/**
 * Calls `action` at most once per `intervalMs`, always with the latest arguments, and once more
 * after the last call so the final state is never lost (the camera indicator's 200 ms rule).
 */
export function throttle<A extends unknown[]>(action: (...args: A) => void, intervalMs: number) {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  const fire = () => {
    timer = undefined;
    last = Date.now();
    const args = pending!;
    pending = undefined;
    action(...args);
  };
  const throttled = (...args: A) => {
    pending = args;
    const wait = last + intervalMs - Date.now();
    if (wait <= 0 && !timer) fire();
    else timer ??= setTimeout(fire, Math.max(0, wait));
  };
  throttled.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    pending = undefined;
  };
  return throttled;
}
