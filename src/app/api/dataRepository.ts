// URLs in the sky data repository ({dataRepository} of viewer-spec §7) for the app's screens:
// the data host the server names in <meta name="galaxy-cruise-data-host">, else this site.
import { dataRepositoryUrl } from '../../../core/dataRepository';

/** The URL of `file` (a path inside the repository, such as 'souvenirs/index.json'). */
export function skyDataUrl(file: string): string {
  const dataHost = document.querySelector<HTMLMetaElement>('meta[name="galaxy-cruise-data-host"]')?.content;
  return `${dataRepositoryUrl(location, dataHost)}/${file}`;
}
