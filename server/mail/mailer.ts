// Outgoing mail: through SMTP_URL with nodemailer, or, when it is unset, as .eml files in
// VAR_DIR/outbox/ with the link logged, so that a developer (or an end-to-end test) can follow
// sign-up and reset links without a mail server. Both paths build the same RFC 5322 message.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  /** One mailbox, as parseMailbox (server/auth/email-address.ts) returned it. */
  to: string;
  subject: string;
  text: string;
  /** The one link in the mail: logged in outbox mode, never with SMTP. */
  link: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /**
   * Runs `compose` and sends the mail it returns (if any) after the caller has answered, so
   * that the answer's timing does not depend on whether a mail goes out; failures are logged.
   */
  later(compose: () => Promise<Mail | undefined>): void;
  /** Resolves when every task handed to later() has finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  outboxDirectory: string;
  from: string;
  logger: FastifyBaseLogger;
}

export function createMailer({ smtpUrl, outboxDirectory, from, logger }: MailerOptions): Mailer {
  const transport: Transporter = smtpUrl
    ? nodemailer.createTransport(smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const pending = new Set<Promise<void>>();

  async function send(mail: Mail): Promise<void> {
    // As an address object, which nodemailer takes as it is: given a string it would parse it as
    // a list with display names, and `victim,attacker@…` would go to the attacker.
    const to = { name: '', address: mail.to };
    const info = await transport.sendMail({ from, to, subject: mail.subject, text: mail.text });
    if (smtpUrl) {
      logger.info({ to: mail.to, messageId: info.messageId }, 'mail sent');
      return;
    }
    await fs.mkdir(outboxDirectory, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}.eml`;
    // Written under a temporary name and renamed, so that a reader never sees half a mail.
    const temporary = path.join(outboxDirectory, `.${name}.tmp`);
    await fs.writeFile(temporary, info.message as Buffer);
    await fs.rename(temporary, path.join(outboxDirectory, name));
    logger.info({ to: mail.to, file: name, link: mail.link }, 'mail written to the outbox');
  }

  return {
    send,
    later(compose) {
      const task = (async () => {
        const mail = await compose();
        if (mail) await send(mail);
      })()
        .catch((error: unknown) => logger.error({ err: error }, 'mail could not be sent'))
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    async idle() {
      while (pending.size > 0) await Promise.all(pending);
    },
    async close() {
      await this.idle();
      transport.close();
    },
  };
}
