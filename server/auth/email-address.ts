// The server's one gate for an e-mail address from outside (sign-up, password reset, login, the
// admin command): exactly one mailbox, as an RFC 5321 forward path holds it. The client checks
// only application-spec §5's loose something@something, which `victim,attacker@probe.example`
// and `Victim<attacker@probe.example>` pass; a mail library reading such text as an address list
// or a display name would mail the link elsewhere than to the address registered.
//
// Accepted: a dot-atom local part (RFC 5322 atext, with letters beyond ASCII as RFC 6531 allows),
// '@', and a domain of dot-separated labels of letters, digits and inner hyphens. Refused: quoted
// local parts, display names, comments, lists, address literals, white space, control and format
// characters, and the lengths RFC 5321 §4.5.3.1 rules out.
import { EMAIL_MAX_LENGTH } from '../../shared/validation';

/** RFC 5321 §4.5.3.1.1 and .2: a local part up to 64 octets, a domain up to 255 (DNS: 253). */
const LOCAL_PART_MAX_OCTETS = 64;
const DOMAIN_MAX_OCTETS = 253;
/** A DNS label's limit (RFC 1035 §2.3.4). */
const LABEL_MAX_OCTETS = 63;

/** RFC 5322 atext, plus RFC 6531's non-ASCII letters, marks and digits. */
const ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\-\p{L}\p{M}\p{N}]+$/u;
const LABEL = /^[A-Za-z0-9\p{L}\p{M}\p{N}](?:[A-Za-z0-9\-\p{L}\p{M}\p{N}]*[A-Za-z0-9\p{L}\p{M}\p{N}])?$/u;

const octets = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The one mailbox `text` names, trimmed of surrounding white space and lower-cased (addresses are
 * kept and compared so: see users.ts), or undefined when it is anything else.
 */
export function parseMailbox(text: string): string | undefined {
  const address = text.trim().toLowerCase();
  if (address.length === 0 || octets(address) > EMAIL_MAX_LENGTH) return undefined;
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return undefined;
  const localPart = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (octets(localPart) > LOCAL_PART_MAX_OCTETS || octets(domain) > DOMAIN_MAX_OCTETS) return undefined;
  if (!localPart.split('.').every((atom) => ATOM.test(atom))) return undefined;
  if (!domain.split('.').every((label) => LABEL.test(label) && octets(label) <= LABEL_MAX_OCTETS)) return undefined;
  return address;
}
