#!/usr/bin/python3
"""Inventory service: reads its port from /etc/inventory.conf when it starts."""
import configparser
import http.server

conf = configparser.ConfigParser()
conf.read_string("[main]\n" + open("/etc/inventory.conf").read())
port = conf.getint("main", "port")


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(f"inventory ok on {port}\n".encode())

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("0.0.0.0", port), Handler).serve_forever()
