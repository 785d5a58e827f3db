import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';

/** One e-mail message in plain text. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Files sent along, e.g. a PDF report. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/** Sends e-mail through the installation's SMTP server. */
export interface Mailer {
  readonly configured: boolean;
  send(message: MailMessage): Promise<void>;
}

/** A mailer over SMTP_URL; without a URL it is not configured and refuses to send. */
export function smtpMailer(opts: { url: string | undefined; from: string; timeoutMs?: number }): Mailer {
  const timeout = opts.timeoutMs ?? 10_000;
  const transport = opts.url
    ? nodemailer.createTransport({
        url: opts.url,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: 2 * timeout,
      } satisfies SMTPTransport.Options)
    : undefined;
  return {
    configured: transport !== undefined,
    async send(message) {
      if (!transport) throw new Error('no SMTP server is configured');
      await transport.sendMail({ from: opts.from, ...message });
    },
  };
}
