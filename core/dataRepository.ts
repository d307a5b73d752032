// {dataRepository} of viewer-spec §7: a host plus 'stellar-globe/static', over https when the
// page is https. The host is DATA_HOST when the server names one, otherwise the page's own.
export const DATA_REPOSITORY_PATH = 'stellar-globe/static';

export function dataRepositoryUrl(page: { protocol: string; host: string }, dataHost?: string | null): string {
  const scheme = page.protocol === 'https:' ? 'https:' : 'http:';
  const host = (dataHost || page.host).replace(/^https?:\/\//, '').replace(/\/$/, '');
  return `${scheme}//${host}/${DATA_REPOSITORY_PATH}`;
}
