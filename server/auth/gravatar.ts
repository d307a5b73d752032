// Gravatar URLs (application-spec §3 avatar url; rankings show them only when made public):
// the MD5 of the trimmed, lower-cased address, as Gravatar defines it. d=identicon gives a
// pattern instead of a blank image for an address without a Gravatar.
import { createHash } from 'node:crypto';

export function gravatarUrl(email: string): string {
  const digest = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `https://www.gravatar.com/avatar/${digest}?d=identicon`;
}
