/**
 * A WebSocket client that never reads: a raw TCP socket that sends the upgrade request and then stops reading
 * (the socket is paused before the first byte comes back), so whatever the server sends fills the kernel's
 * buffers and then the server's own, as behind a phone in a tunnel or a stuck browser tab. `readToEnd()` starts
 * reading again and parses what arrives: the 101 answer, the frames, and the close frame when one comes.
 * Used by load-tests/slow-consumers.ts (and through it test/slow-consumer.int.test.ts).
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';

export interface SlowSocketEnd {
  /** HTTP status of the handshake answer (101 when upgraded). */
  status: number;
  /** Data frames read (text or binary). */
  frames: number;
  /** Bytes read after the handshake answer. */
  bytes: number;
  /** The close frame's code, when the server sent one before the connection ended. */
  closeCode: number | undefined;
  /** The connection ended (FIN or reset) within the wait. */
  ended: boolean;
}

export interface SlowSocket {
  /** The connection ended or failed while nobody read (seen without reading: a reset, or a FIN with nothing left unread is not seen). */
  readonly failed: boolean;
  /** Reads everything the server sent (and still sends) until the connection ends or `timeoutMs` passes. */
  readToEnd(timeoutMs: number): Promise<SlowSocketEnd>;
  destroy(): void;
}

/** Opens `path` on `port` with `headers` and never reads; resolves once the request is written. */
export function openSlowSocket(port: number, path: string, headers: Record<string, string>): Promise<SlowSocket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.pause();
    let failed = false;
    socket.on('error', () => (failed = true));
    socket.once('connect', () => {
      const lines = [
        `GET ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`, (error) => {
        if (error) {
          reject(error);
          return;
        }
        resolve({
          get failed() {
            return failed;
          },
          readToEnd: (timeoutMs) => readToEnd(socket, timeoutMs),
          destroy: () => socket.destroy(),
        });
      });
    });
    socket.once('error', reject);
  });
}

function readToEnd(socket: net.Socket, timeoutMs: number): Promise<SlowSocketEnd> {
  return new Promise((resolve) => {
    const result: SlowSocketEnd = { status: 0, frames: 0, bytes: 0, closeCode: undefined, ended: false };
    let pending: Buffer = Buffer.alloc(0);
    let headerDone = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.removeAllListeners('data');
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      if (!headerDone) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        result.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(pending.subarray(0, end).toString('latin1'))?.[1] ?? 0);
        pending = pending.subarray(end + 4);
        headerDone = true;
      }
      result.bytes += chunk.length;
      // server frames are unmasked: opcode, then a 7-bit, 16-bit or 64-bit length
      for (;;) {
        if (pending.length < 2) break;
        const opcode = pending[0]! & 0x0f;
        let length = pending[1]! & 0x7f;
        let offset = 2;
        if (length === 126) {
          if (pending.length < 4) break;
          length = pending.readUInt16BE(2);
          offset = 4;
        } else if (length === 127) {
          if (pending.length < 10) break;
          length = Number(pending.readBigUInt64BE(2));
          offset = 10;
        }
        if (pending.length < offset + length) break;
        if (opcode === 0x8) result.closeCode = length >= 2 ? pending.readUInt16BE(offset) : 1005;
        else if (opcode === 0x1 || opcode === 0x2) result.frames++;
        pending = pending.subarray(offset + length);
      }
    });
    // the server ended the connection (not our own destroy at the timeout)
    const ended = () => {
      if (done) return;
      result.ended = true;
      finish();
    };
    socket.once('end', ended);
    socket.once('close', ended);
    socket.resume();
  });
}
