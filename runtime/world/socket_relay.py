"""Relays TCP connections on a world's own loopback to host Unix sockets (stdlib only).

A task's world has its own network namespace, so host services (the Google
emulator, the offline web apps) listen on Unix sockets bound into the world and
a relay inside it accepts on 127.0.0.x and copies bytes both ways. Used two ways:
imported by ``kernel.boot`` in the kernel, and run as a script in the world by
``site.serve`` (``python -I -S -c <this file> ADDR:PORT=SOCKET ...``; prints
"ready" once every listener is bound), so it must import nothing but the stdlib.
"""

import socket
import sys
import threading


def pump(src: socket.socket, dst: socket.socket) -> None:
    """Copy ``src`` to ``dst`` until either side closes, then shut both down."""
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(listener: socket.socket, path: str, name: str = "deskact-fwd") -> None:
    """Accept on ``listener`` until it is closed; each client is relayed to the Unix socket ``path``."""
    while True:
        try:
            client, _ = listener.accept()
        except OSError:
            return
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(path)
        except OSError:
            client.close()
            upstream.close()
            continue
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=pump, args=(a, b), daemon=True, name=name).start()


def main(specs: list[str]) -> None:
    """Listen on every ``ADDR:PORT=SOCKET`` of ``specs``, print "ready", relay until killed."""
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
