"""WebSocket clients that never read, with small kernel buffers (load-tests/slow-socket.ts runs this).

Node cannot set SO_RCVBUF or TCP_MAXSEG on a TCP socket, and on loopback the kernel otherwise takes about 4 MB of
a socket's unread data (the client's receive buffer grows to several MB, and the server's send buffer is sized
from the segment size, 64 KB on loopback) before the server has to buffer anything itself. Set before connect,
a small receive buffer keeps the window small and a small segment size keeps the server's send buffer small:
with 2 KiB and 256 B the kernel holds about 45 KB of a socket that is not read (4 KiB and 536 B: about 100 KB).

Protocol (one JSON object per line):
  stdin:  {"port": P, "receiveBufferBytes": R, "maxSegmentBytes": M, "requests": [{"path": ..., "headers": {...}}]}
  stdout: {"kernelBytes": K}   what the kernel took from a writer to a paused socket with these options (measured)
  stdout: {"opened": N, "streaming": S}
                               every socket connected and its upgrade request written; S of them (all, unless
                               the server refused or was slower than 60 s) answered 101 and sent their first
                               frame, which a stream sends once it watches its session (seen with MSG_PEEK: none
                               is read)
  stdin:  {"readMs": T}        read every socket until the server ends it or T ms pass
  stdout: {"ends": [{"status", "frames", "bytes", "closeCode", "closeReason", "ended", "reset"}, ...]}
Ends early when stdin closes (the parent went away).
"""

import base64
import json
import os
import selectors
import socket
import struct
import sys
import time


def configured_socket(receive_buffer_bytes, max_segment_bytes):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer_bytes)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, max_segment_bytes)
    return sock


def kernel_bytes(receive_buffer_bytes, max_segment_bytes):
    """Bytes a non-blocking writer gets accepted by the kernel before a socket with these options is read."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    client = configured_socket(receive_buffer_bytes, max_segment_bytes)
    client.connect(listener.getsockname())
    server, _ = listener.accept()
    server.setblocking(False)
    total = 0
    chunk = b"x" * 8192
    for _ in range(3):
        while True:
            try:
                total += server.send(chunk)
            except BlockingIOError:
                break
        time.sleep(0.1)
    for sock in (client, server, listener):
        sock.close()
    return total


def upgrade_request(port, path, headers):
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}",
        "Sec-WebSocket-Version: 13",
    ] + [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


class Reader:
    """Parses what one socket reads: the handshake answer, then unmasked server frames."""

    def __init__(self):
        self.pending = b""
        self.header_done = False
        self.end = {"status": 0, "frames": 0, "bytes": 0, "closeCode": None, "closeReason": None, "ended": False, "reset": False}

    def feed(self, data):
        self.pending += data
        if not self.header_done:
            end = self.pending.find(b"\r\n\r\n")
            if end < 0:
                return
            status_line = self.pending[:end].split(b"\r\n", 1)[0].decode("latin-1")
            parts = status_line.split(" ")
            self.end["status"] = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
            self.pending = self.pending[end + 4 :]
            self.header_done = True
            self.end["bytes"] += len(self.pending)
        else:
            self.end["bytes"] += len(data)
        while len(self.pending) >= 2:
            opcode = self.pending[0] & 0x0F
            length = self.pending[1] & 0x7F
            offset = 2
            if length == 126:
                if len(self.pending) < 4:
                    return
                length = struct.unpack(">H", self.pending[2:4])[0]
                offset = 4
            elif length == 127:
                if len(self.pending) < 10:
                    return
                length = struct.unpack(">Q", self.pending[2:10])[0]
                offset = 10
            if len(self.pending) < offset + length:
                return
            payload = self.pending[offset : offset + length]
            if opcode == 0x8:
                self.end["closeCode"] = struct.unpack(">H", payload[:2])[0] if length >= 2 else 1005
                self.end["closeReason"] = payload[2:].decode("utf-8", "replace")
            elif opcode in (0x1, 0x2):
                self.end["frames"] += 1
            self.pending = self.pending[offset + length :]


def handshake_state(sock):
    """"streaming": the 101 answer and the first frame's first bytes arrived; "refused": another answer, or the
    connection failed; "waiting": nothing yet. Peeked (MSG_PEEK): whatever arrived stays unread."""
    try:
        seen = sock.recv(4096, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except (BlockingIOError, InterruptedError):
        return "waiting"
    except OSError:
        return "refused"
    if not seen:
        return "refused"
    end = seen.find(b"\r\n\r\n")
    if end < 0:
        return "waiting"
    if not seen.startswith(b"HTTP/1.1 101"):
        return "refused"
    return "streaming" if len(seen) >= end + 4 + 2 else "waiting"


def wait_streaming(sockets, timeout_s):
    """Waits until every socket streams or was refused; returns how many stream."""
    states = {}
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for sock in sockets:
            if states.get(sock) in (None, "waiting"):
                states[sock] = handshake_state(sock)
        if all(state != "waiting" for state in states.values()):
            break
        time.sleep(0.05)
    return sum(1 for state in states.values() if state == "streaming")


def read_all(sockets, timeout_ms):
    readers = [Reader() for _ in sockets]
    selector = selectors.DefaultSelector()
    for index, sock in enumerate(sockets):
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, index)
    deadline = time.monotonic() + timeout_ms / 1000
    open_count = len(sockets)
    while open_count > 0:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        for key, _ in selector.select(min(left, 0.5)):
            index = key.data
            try:
                data = key.fileobj.recv(65536)
            except BlockingIOError:
                continue
            except ConnectionResetError:
                readers[index].end["reset"] = True
                data = b""
            if data:
                readers[index].feed(data)
                continue
            readers[index].end["ended"] = True
            selector.unregister(key.fileobj)
            open_count -= 1
    for sock in sockets:
        sock.close()
    return [reader.end for reader in readers]


def main():
    setup = json.loads(sys.stdin.readline())
    receive_buffer_bytes = setup["receiveBufferBytes"]
    max_segment_bytes = setup["maxSegmentBytes"]
    print(json.dumps({"kernelBytes": kernel_bytes(receive_buffer_bytes, max_segment_bytes)}), flush=True)
    sockets = []
    for request in setup["requests"]:
        sock = configured_socket(receive_buffer_bytes, max_segment_bytes)
        sock.connect(("127.0.0.1", setup["port"]))
        sock.sendall(upgrade_request(setup["port"], request["path"], request["headers"]))
        sockets.append(sock)
    print(json.dumps({"opened": len(sockets), "streaming": wait_streaming(sockets, 60)}), flush=True)
    line = sys.stdin.readline()
    if not line:
        return
    ends = read_all(sockets, json.loads(line)["readMs"])
    print(json.dumps({"ends": ends}), flush=True)


if __name__ == "__main__":
    main()
