// Reads the mails the server wrote to VAR_DIR/outbox/ (SMTP_URL unset) the way a mail client
// would: unfolded headers, RFC 2047 subjects, base64 or quoted-printable bodies; and finds the
// sign-up or reset link in them (the app's page #/{kind}/confirm?token=…), so that tests can
// follow it: through the page and its button in a browser, or by the page's two calls.
import fs from 'node:fs';
import path from 'node:path';
import type { MailLinkKind } from '../../shared/api';

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  /** The sign-up or password-reset link of the mail, if it has one. */
  link: string | undefined;
}

function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i], 'utf8'));
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words; whitespace between two of them is not part of the text. */
function decodeHeader(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
    );
}

export function parseMail(file: string, source: string): OutboxMail {
  const [head, ...rest] = source.split(/\r?\n\r?\n/);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const body = rest.join('\n\n');
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body).toString('utf8')
        : body;
  const link = /https?:\/\/\S+\/#\/(?:signup|password_reset)\/confirm\?token=[\w-]+/.exec(text)?.[0];
  return {
    file,
    to: headers.get('to') ?? '',
    subject: decodeHeader(headers.get('subject') ?? ''),
    text: text.replace(/\r\n/g, '\n'),
    link,
  };
}

/**
 * What a mail link names: the origin it points at, its kind (the page #/{kind}/confirm and the
 * routes /api/{kind}/link and /api/{kind}/confirm) and its token.
 */
export function mailLinkParts(link: string): { origin: string; kind: MailLinkKind; token: string } {
  const url = new URL(link);
  const page = /^#\/(signup|password_reset)\/confirm\?(.*)$/.exec(url.hash);
  if (!page) throw new Error(`not a mail link: ${link}`);
  return {
    origin: url.origin,
    kind: page[1] as MailLinkKind,
    token: new URLSearchParams(page[2]).get('token') ?? '',
  };
}

/** Every mail in the outbox, oldest first (file names start with the time written). */
export function readOutbox(outbox: string): OutboxMail[] {
  if (!fs.existsSync(outbox)) return [];
  return fs
    .readdirSync(outbox)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => parseMail(name, fs.readFileSync(path.join(outbox, name), 'utf8')));
}

/**
 * The `count`-th mail to `to` (the first by default), waiting up to `timeoutMs` for it: reset
 * mail is sent after the server has answered.
 */
export async function waitForMail(
  outbox: string,
  to: string,
  { count = 1, timeoutMs = 10_000 }: { count?: number; timeoutMs?: number } = {},
): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = readOutbox(outbox).filter((candidate) => candidate.to === to);
    if (mails.length >= count) return mails[count - 1];
    if (Date.now() > deadline) throw new Error(`no mail #${count} to ${to} in ${outbox} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
