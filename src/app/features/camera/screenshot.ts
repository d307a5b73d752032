// The camera button's screenshot (application-spec §2: camera = save screenshot; §8 alerts).
// The globe's WebGL canvas keeps no drawing buffer after it is shown, so the picture is copied
// in the frame that draws it: the globe is asked for a frame, and a frame callback registered
// after the globe's runs after its draw in the same frame, while the buffer still holds the
// picture; it copies the canvas onto a 2D canvas, which is then encoded as PNG.
import type { Globe } from '../../../globe/Globe';

/** A browser without canvas.toBlob or download links: §8's not_supported alert. */
export class ScreenshotNotSupported extends Error {
  constructor() {
    super('not_supported');
    this.name = 'ScreenshotNotSupported';
  }
}

/** No 2D canvas context to copy the picture onto: §8's alert. */
export class NoCanvasContext extends Error {
  constructor() {
    super('no 2D canvas context');
    this.name = 'NoCanvasContext';
  }
}

export function screenshotSupported(): boolean {
  return (
    typeof HTMLCanvasElement !== 'undefined' &&
    typeof HTMLCanvasElement.prototype.toBlob === 'function' &&
    typeof URL.createObjectURL === 'function' &&
    'download' in HTMLAnchorElement.prototype
  );
}

/** The file name: galaxy-cruise-YYYYMMDD-HHMMSS.png in local time. */
export function screenshotName(at: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  const date = `${at.getFullYear()}${two(at.getMonth() + 1)}${two(at.getDate())}`;
  const time = `${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}`;
  return `galaxy-cruise-${date}-${time}.png`;
}

/** The globe's picture as a PNG. */
export function captureGlobe(globe: Globe): Promise<Blob> {
  if (!screenshotSupported()) return Promise.reject(new ScreenshotNotSupported());
  return new Promise((resolve, reject) => {
    globe.requestFrame();
    requestAnimationFrame(() => {
      const source = globe.canvas;
      const copy = document.createElement('canvas');
      copy.width = source.width;
      copy.height = source.height;
      const context = copy.getContext('2d');
      if (!context) {
        reject(new NoCanvasContext());
        return;
      }
      context.drawImage(source, 0, 0);
      copy.toBlob((blob) => (blob ? resolve(blob) : reject(new NoCanvasContext())), 'image/png');
    });
  });
}

/** Offers `blob` to the browser as a download named `name`. */
export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own reference to the blob once started.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
