import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the test server received it: the envelope and the raw MIME text. */
export interface Received {
  from: string;
  rcpt: string[];
  raw: string;
  user: string | undefined;
}

/** A real SMTP server (the smtp-server package) on a free loopback port. */
export interface TestSmtp {
  port: number;
  received: Received[];
  /** Whether a client switched the plain connection to TLS (STARTTLS). */
  upgraded: boolean;
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  /** Implicit TLS (SMTPS) with this certificate. */
  secure?: boolean;
  /** The certificate offered (implicit TLS, or STARTTLS on a plain server). */
  tls?: { key: Buffer; cert: Buffer };
  /** No STARTTLS offered. */
  noStarttls?: boolean;
  /** Requires a login with this user and password. */
  auth?: { user: string; pass: string };
  /** Recipients answered "550 5.1.1 No such user". */
  refuse?: string[];
}

/**
 * Starts an SMTP server that keeps every mail it gets.
 *
 * @example
 * const smtp = await startSmtp({ auth: { user: 'ada', pass: 'pw' } });
 * // ... send to 127.0.0.1:smtp.port ...
 * smtp.received[0].raw; // the MIME text
 * await smtp.close();
 */
export async function startSmtp(opts: TestSmtpOptions = {}): Promise<TestSmtp> {
  const received: Received[] = [];
  const state = { upgraded: false };
  const server = new SMTPServer({
    logger: false,
    secure: opts.secure ?? false,
    ...(opts.tls ? { key: opts.tls.key, cert: opts.tls.cert } : {}),
    ...(opts.noStarttls || !opts.tls ? { disabledCommands: ['STARTTLS'] } : {}),
    authOptional: !opts.auth,
    // A login over a plain connection is what the tests of a plain server do.
    allowInsecureAuth: true,
    onSecure(_socket, session, callback) {
      if (!opts.secure && session) state.upgraded = true;
      callback();
    },
    onAuth(auth, _session, callback) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass)
        return callback(null, { user: auth.username });
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (opts.refuse?.includes(address.address))
        return callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcpt: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: typeof session.user === 'string' ? session.user : undefined,
        });
        callback();
      });
    },
  });
  // A client that gives up on a certificate closes mid-handshake: the server reports it, and
  // the test checks the client's side.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    get upgraded() {
      return state.upgraded;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A server that takes connections and never says a word (no SMTP greeting). */
export async function startSilent(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The base64 of a text, as a short MIME part carries it (one line). */
export function base64Of(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
