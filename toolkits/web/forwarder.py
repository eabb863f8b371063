"""Runs inside a task's world (stdlib only, started by ``site.serve``): relays each site's
loopback address, e.g. 127.0.0.2:80 for shop.test, to that site's Unix socket.

The world's network namespace has only its own loopback, so Chromium (or the
agent's code) there reaches the apps through these listeners; the sockets
themselves are bound into the world by the kernel session like the Google
emulator's. Usage: python forwarder.py ADDR:PORT=SOCKET [...]; prints "ready"
once every listener is bound.
"""

import socket
import sys
import threading


def pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(listener: socket.socket, path: str) -> None:
    while True:
        client, _ = listener.accept()
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(path)
        except OSError:
            client.close()
            upstream.close()
            continue
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=pump, args=(a, b), daemon=True).start()


def main(specs: list[str]) -> None:
    threads = []
    for spec in specs:
        address, path = spec.split("=", 1)
        host, port = address.rsplit(":", 1)
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, int(port)))
        listener.listen(128)
        threads.append(threading.Thread(target=serve, args=(listener, path), daemon=True))
    for t in threads:
        t.start()
    print("ready", flush=True)
    for t in threads:
        t.join()


if __name__ == "__main__":
    main(sys.argv[1:])
