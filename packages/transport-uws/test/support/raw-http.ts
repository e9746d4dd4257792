import { connect } from 'node:net';

export interface RawAnswer {
  /** Undefined when the server closed without answering. */
  status: number | undefined;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
  /** Bytes of the request body the client managed to write before the server closed (or all of them). */
  bodyBytesWritten: number;
  /** The server closed the connection (with `waitForClose`: within the timeout). */
  closedByServer: boolean;
}

export interface RawRequestOptions {
  /** Written after the head, chunk by chunk, waiting for each to drain; stops once the server closes. */
  bodyChunks?: readonly Buffer[];
  /** Give up waiting after this long. Default 5 s. */
  timeoutMs?: number;
  /** After the answer, wait (up to the timeout) for the server to close the connection. Default false. */
  waitForClose?: boolean;
  /** Send the head in two writes 50 ms apart, split at this offset, so the server reads it in two parts. */
  splitHeadAt?: number;
}

/**
 * Sends exactly these bytes as a request head (the client adds nothing) and
 * reads one answer: for heads and bodies fetch would refuse to send, and to see
 * whether the server closed the connection.
 */
export function rawRequest(port: number, head: string | Buffer, options: RawRequestOptions = {}): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let bodyBytesWritten = 0;
    let serverClosed = false;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parse(Buffer.concat(received).toString('latin1')), bodyBytesWritten, closedByServer: serverClosed });
    };
    const timer = setTimeout(finish, options.timeoutMs ?? 5_000);
    socket.on('data', (chunk) => {
      received.push(chunk);
      if (!options.waitForClose && answerComplete(Buffer.concat(received).toString('latin1'))) finish();
    });
    socket.on('end', () => {
      serverClosed = true;
      finish();
    });
    socket.on('close', () => {
      serverClosed = true;
      finish();
    });
    socket.on('error', () => {
      serverClosed = true;
      finish();
    });
    void (async () => {
      const split = options.splitHeadAt;
      if (split === undefined) socket.write(head);
      else {
        socket.write(head.slice(0, split));
        await new Promise((r) => setTimeout(r, 50));
        if (!socket.destroyed) socket.write(head.slice(split));
      }
      for (const chunk of options.bodyChunks ?? []) {
        if (serverClosed || settled || socket.destroyed) return;
        const flushed = socket.write(chunk);
        bodyBytesWritten += chunk.byteLength;
        if (!flushed) await new Promise((r) => socket.once('drain', r).once('close', r));
      }
    })();
  });
}

function answerComplete(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
  return !length || text.length - end - 4 >= Number(length[1]);
}

function parse(text: string): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return { status: undefined, headers: {}, body: '' };
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
  return { status: status === undefined ? undefined : Number(status), headers, body: Buffer.from(text.slice(end + 4), 'latin1').toString('utf8') };
}
