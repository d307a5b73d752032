// The files this page has loaded so far and their bytes, from the browser's resource timing
// (every script, the wasm core, the sky data, the API's answers): the loading status counts real
// downloads as they finish. A file from the cache counts with 0 bytes transferred.
import { useEffect, useState } from 'react';

export interface LoadedFiles {
  count: number;
  bytes: number;
}

export function useLoadedFiles(active: boolean): LoadedFiles {
  const [files, setFiles] = useState<LoadedFiles>({ count: 0, bytes: 0 });
  useEffect(() => {
    if (!active || typeof PerformanceObserver === 'undefined') return;
    let count = 0;
    let bytes = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as PerformanceResourceTiming[]) {
        count += 1;
        bytes += entry.transferSize || 0;
      }
      setFiles({ count, bytes });
    });
    // buffered: the files loaded before this status mounted (the first chunk, the session) count too.
    observer.observe({ type: 'resource', buffered: true });
    return () => observer.disconnect();
  }, [active]);
  return files;
}
