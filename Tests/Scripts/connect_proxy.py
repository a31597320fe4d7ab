"""An HTTP proxy that tunnels CONNECT requests only, as Squid does for https, logging each
target (one `CONNECT host:port` line per request) to the file given, so a test can tell
which address the client asked for. Any other request is logged and answered 405. With
UPSTREAM (`host:port`), every tunnel goes there whatever it asked for: a test can ask for a
public address and be answered by a server on loopback.

usage: connect_proxy.py PORT LOG_FILE [UPSTREAM]
"""
import asyncio
import sys


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def handle(reader, writer, log_path, upstream):
    head = await reader.readuntil(b"\r\n\r\n")
    request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
    with open(log_path, "a") as log:
        log.write(request_line + "\n")
    method, target, _ = request_line.split(" ", 2)
    if method != "CONNECT":
        writer.write(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        await writer.drain()
        writer.close()
        return
    host, _, port = (upstream or target).rpartition(":")
    try:
        upstream_reader, upstream_writer = await asyncio.open_connection(host.strip("[]"), int(port))
    except OSError:
        writer.write(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()
        return
    writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
    await writer.drain()
    await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))


async def main():
    port, log_path = int(sys.argv[1]), sys.argv[2]
    upstream = sys.argv[3] if len(sys.argv) > 3 else None
    server = await asyncio.start_server(lambda r, w: handle(r, w, log_path, upstream), "127.0.0.1", port)
    async with server:
        await server.serve_forever()


asyncio.run(main())
