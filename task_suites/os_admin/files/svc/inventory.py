#!/usr/bin/python3
"""Inventory service: answers every GET with its name. The port comes from $PORT."""
import http.server
import os


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"inventory ok\n")

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("0.0.0.0", int(os.environ["PORT"])), Handler).serve_forever()
