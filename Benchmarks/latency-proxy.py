"""A loopback TCP proxy that adds network latency, for measuring fetches as if the sites were far.

    python3 Benchmarks/latency-proxy.py --one-way-ms 20 --target 127.0.0.1:8001 --target 127.0.0.1:8002 \
        --stats /tmp/proxy-stats.json

For each --target it listens on a free port of 127.0.0.1 and prints `TARGET_PORT LISTEN_PORT` on
stdout (one line per target, then `ready`). Every chunk read from either side is written to the
other side --one-way-ms later, in order, so a request and its answer take a round trip of twice
that (40 ms for 20), and a new connection's handshake through the proxy costs one more round
trip (the connection to the target is opened when the client's is accepted, after the delay).
Throughput is not limited: chunks in flight overlap, as packets on a long link do.

With --tls-cert and --tls-key the listening ports speak TLS (HTTP/1.1 by ALPN) and the targets
plain HTTP, as a TLS-terminating load balancer in front of a site does: the delay applies to the
encrypted bytes, so each handshake pays its round trips, and every connection counted is a TLS
connection. With --one-way-ms 0 it is a plain TLS terminator, as the client tests use it.

Counts the TCP connections accepted, the HTTP/1.x request lines sent through them and, with TLS,
the connections that resumed an earlier TLS session, and writes
them as JSON to --stats when stopped (SIGINT or SIGTERM) and every time the counts change.
Loopback only: a target other than 127.0.0.1 is refused.
"""

import argparse
import asyncio
import json
import os
import re
import signal
import ssl
import sys

REQUEST_LINE = re.compile(rb"(?:^|\r\n)(?:GET|POST|HEAD|PUT|DELETE|OPTIONS|PATCH) \S+ HTTP/1\.[01]\r\n")


class Counts:
    def __init__(self, path):
        self.path = path
        self.connections = 0
        self.requests = 0
        # TLS connections that resumed an earlier session instead of a full handshake.
        self.resumed = 0

    def write(self):
        if self.path:
            with open(self.path + ".tmp", "w") as file:
                json.dump({"connections": self.connections, "requests": self.requests, "resumed": self.resumed}, file)
            os.replace(self.path + ".tmp", self.path)


async def relay(reader, writer, delay, on_data=None):
    """Copies reader to writer, each chunk `delay` seconds after it was read, in order."""
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()

    async def deliver():
        while True:
            due, chunk = await queue.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if chunk is None:
                # The other side finished sending: half-close where the transport can, close
                # otherwise (TLS has no half-close), so the reader sees the end either way.
                try:
                    if writer.can_write_eof():
                        writer.write_eof()
                    else:
                        writer.close()
                except (OSError, RuntimeError):
                    pass
                return
            try:
                writer.write(chunk)
                await writer.drain()
            except (OSError, RuntimeError):
                return

    delivering = asyncio.create_task(deliver())
    try:
        while True:
            chunk = await reader.read(65536)
            if on_data and chunk:
                on_data(chunk)
            queue.put_nowait((loop.time() + delay, chunk or None))
            if not chunk:
                break
    except (OSError, RuntimeError):
        queue.put_nowait((loop.time() + delay, None))
    await delivering


async def serve(target_port, delay, counts, tls=None, count_connections=True, count_requests=True):
    """Listens on a free port of 127.0.0.1 and relays each connection to `target_port`, `delay`
    seconds each way; with `tls` (an SSLContext) the listening side speaks TLS."""

    async def handle(client_reader, client_writer):
        if count_connections:
            counts.connections += 1
            counts.write()
        tls_session = client_writer.get_extra_info("ssl_object")
        if tls_session is not None and tls_session.session_reused:
            counts.resumed += 1
            counts.write()
        # The client's SYN reaches the far side one way later.
        await asyncio.sleep(delay)
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
        except OSError:
            client_writer.close()
            return
        tail = b""

        def count_request_lines(chunk):
            # A request line may straddle two chunks: what follows the last one found is kept.
            nonlocal tail
            data = tail + chunk
            end = 0
            for match in REQUEST_LINE.finditer(data):
                counts.requests += 1
                end = match.end()
            if end:
                counts.write()
            tail = data[end:][-2048:]

        try:
            await asyncio.gather(
                relay(client_reader, server_writer, delay, count_request_lines if count_requests else None),
                relay(server_reader, client_writer, delay),
                return_exceptions=True,
            )
        except asyncio.CancelledError:
            # The proxy is stopping: the connection ends with it (see main).
            pass
        for writer in (client_writer, server_writer):
            try:
                writer.close()
            except (OSError, RuntimeError):
                pass

    return await asyncio.start_server(handle, "127.0.0.1", 0, ssl=tls)


def tls_context(certificate, key):
    """A server context offering TLS 1.2 and 1.3 and HTTP/1.1 by ALPN."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(certificate, key)
    context.set_alpn_protocols(["http/1.1"])
    return context


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--one-way-ms", type=float, required=True, help="delay added in each direction")
    parser.add_argument("--target", action="append", required=True, help="127.0.0.1:PORT to forward to")
    parser.add_argument("--stats", help="JSON file for the counts")
    parser.add_argument("--tls-cert", help="PEM certificate (chain) the listening ports present")
    parser.add_argument("--tls-key", help="PEM private key of --tls-cert")
    arguments = parser.parse_args()
    counts = Counts(arguments.stats)
    counts.write()
    delay = arguments.one_way_ms / 1000
    if bool(arguments.tls_cert) != bool(arguments.tls_key):
        sys.exit("latency-proxy: --tls-cert and --tls-key go together")
    tls = tls_context(arguments.tls_cert, arguments.tls_key) if arguments.tls_cert else None
    servers = []
    for target in arguments.target:
        host, _, port = target.rpartition(":")
        if host != "127.0.0.1":
            sys.exit(f"latency-proxy: only 127.0.0.1 targets are proxied, not {target}")
        if tls:
            # The delaying relay in front carries the encrypted bytes to a terminator beside the
            # target, which counts the requests it decrypts.
            terminator = await serve(int(port), 0, counts, tls=tls, count_connections=False)
            servers.append(terminator)
            inner_port = terminator.sockets[0].getsockname()[1]
            server = await serve(inner_port, delay, counts, count_requests=False)
        else:
            server = await serve(int(port), delay, counts)
        servers.append(server)
        print(port, server.sockets[0].getsockname()[1], flush=True)
    print("ready", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signal_number, stop.set)
    # A parent that spawned the proxy from a thread blocking these signals (as a Swift test
    # process's worker threads do) passes the mask on: unblocked, the proxy can be stopped.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    await stop.wait()
    counts.write()
    for server in servers:
        server.close()
    # Connections still open end here, quietly: a relay cancelled mid-read is the normal end of
    # a proxy that is told to stop, not an error worth a traceback.
    while pending := [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]:
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)


if __name__ == "__main__":
    asyncio.run(main())
