import net from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A received e-mail, decoded. */
export interface ReceivedMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  /** Attached files, decoded. */
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

/** A real SMTP server on loopback that takes one account's mail and keeps it for the test. */
export interface TestSmtpServer {
  port: number;
  /** SMTP_URL for the portal, with the account's user and password. */
  url: string;
  messages: ReceivedMail[];
  /** Starts listening (again) on `port`. */
  start(): Promise<void>;
  /** Stops listening; later sends are refused as by a server that is down. */
  stop(): Promise<void>;
}

const USER = 'portal';
const PASSWORD = 'mail-secret';

/** A loopback port nothing listens on right now. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/** Prepares an SMTP server on a free port; it is down until `start`. */
export async function prepareSmtpServer(): Promise<TestSmtpServer> {
  const port = await freePort();
  const messages: ReceivedMail[] = [];
  let server: SMTPServer | undefined;
  return {
    port,
    url: `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}`,
    messages,
    async start() {
      server = new SMTPServer({
        disabledCommands: ['STARTTLS'],
        allowInsecureAuth: true,
        logger: false,
        onAuth(auth, _session, callback) {
          if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
          else callback(new Error('Invalid username or password'));
        },
        onData(stream, _session, callback) {
          simpleParser(stream)
            .then((m) => {
              messages.push({
                from: m.from?.text ?? '',
                to: [m.to ?? []]
                  .flat()
                  .map((a) => a.text)
                  .join(', '),
                subject: m.subject ?? '',
                text: m.text ?? '',
                attachments: m.attachments.map((a) => ({
                  filename: a.filename ?? '',
                  contentType: a.contentType,
                  content: a.content,
                })),
              });
              callback();
            })
            .catch((err: unknown) => callback(err instanceof Error ? err : new Error(String(err))));
        },
      });
      const s = server;
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => resolve());
      });
    },
    async stop() {
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}
