"""A loopback TCP proxy that adds network latency, for measuring fetches as if the sites were far.

    python3 Benchmarks/latency-proxy.py --one-way-ms 20 --target 127.0.0.1:8001 --target 127.0.0.1:8002 \
        --stats /tmp/proxy-stats.json

For each --target it listens on a free port of 127.0.0.1 and prints `TARGET_PORT LISTEN_PORT` on
stdout (one line per target, then `ready`). Every chunk read from either side is written to the
other side --one-way-ms later, in order, so a request and its answer take a round trip of twice
that (40 ms for 20), and a new connection's handshake through the proxy costs one more round
trip (the connection to the target is opened when the client's is accepted, after the delay).
Throughput is not limited: chunks in flight overlap, as packets on a long link do.

Counts the TCP connections accepted and the HTTP/1.x request lines sent through them, and writes
them as JSON to --stats when stopped (SIGINT or SIGTERM) and every time the counts change.
Loopback only: a target other than 127.0.0.1 is refused.
"""

import argparse
import asyncio
import json
import os
import re
import signal
import sys

REQUEST_LINE = re.compile(rb"(?:^|\r\n)(?:GET|POST|HEAD|PUT|DELETE|OPTIONS|PATCH) \S+ HTTP/1\.[01]\r\n")


class Counts:
    def __init__(self, path):
        self.path = path
        self.connections = 0
        self.requests = 0

    def write(self):
        if self.path:
            with open(self.path + ".tmp", "w") as file:
                json.dump({"connections": self.connections, "requests": self.requests}, file)
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
                try:
                    if writer.can_write_eof():
                        writer.write_eof()
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


async def serve(target_port, delay, counts):
    async def handle(client_reader, client_writer):
        counts.connections += 1
        counts.write()
        # The client's SYN reaches the far side one way later.
        await asyncio.sleep(delay)
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
        except OSError:
            client_writer.close()
            return
        tail = b""

        def count_requests(chunk):
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
                relay(client_reader, server_writer, delay, count_requests),
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

    return await asyncio.start_server(handle, "127.0.0.1", 0)


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--one-way-ms", type=float, required=True, help="delay added in each direction")
    parser.add_argument("--target", action="append", required=True, help="127.0.0.1:PORT to forward to")
    parser.add_argument("--stats", help="JSON file for the counts")
    arguments = parser.parse_args()
    counts = Counts(arguments.stats)
    counts.write()
    delay = arguments.one_way_ms / 1000
    servers = []
    for target in arguments.target:
        host, _, port = target.rpartition(":")
        if host != "127.0.0.1":
            sys.exit(f"latency-proxy: only 127.0.0.1 targets are proxied, not {target}")
        server = await serve(int(port), delay, counts)
        servers.append(server)
        print(port, server.sockets[0].getsockname()[1], flush=True)
    print("ready", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signal_number, stop.set)
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
