// The steps the first screen waits through before the sky shows, as the loading status names
// them: the session (who is here), the globe's code (its chunk, asked for after the first paint)
// and the globe itself (the WebGL context and its layers). Each is done when that work is,
// never by a timer; the first one not done is the current one.

export type LoadingStep = 'session' | 'code' | 'globe';
export type StepState = 'done' | 'current' | 'waiting';

export interface LoadingProgress {
  steps: { step: LoadingStep; state: StepState }[];
  done: number;
  total: number;
}

export function loadingProgress(done: Record<LoadingStep, boolean>): LoadingProgress {
  const order: LoadingStep[] = ['session', 'code', 'globe'];
  // A later step cannot finish before an earlier one: the globe needs its code, the code waits for the session.
  const finished = order.map((_, index) => order.slice(0, index + 1).every((step) => done[step]));
  const current = finished.indexOf(false);
  return {
    steps: order.map((step, index) => ({
      step,
      state: finished[index] ? 'done' : index === current ? 'current' : 'waiting',
    })),
    done: finished.filter(Boolean).length,
    total: order.length,
  };
}

/** Bytes as people read them: '850 kB', '1.9 MB'. */
export function formatBytes(bytes: number, locale: string): string {
  const megabytes = bytes >= 1e6;
  const value = megabytes ? bytes / 1e6 : bytes / 1e3;
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: megabytes ? 1 : 0 }).format(value);
  return `${number} ${megabytes ? 'MB' : 'kB'}`;
}
