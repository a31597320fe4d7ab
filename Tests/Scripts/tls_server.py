#!/usr/bin/env python3
"""An HTTPS server on 127.0.0.1 for the network tests, with a certificate it makes itself.

Writes cert.pem (a self-signed certificate for 127.0.0.1, the tests' certificate authority)
and key.pem into FOLDER, then serves until killed:
  /ok          200, body "secure"
  /down        302 to http://127.0.0.1:HTTP_PORT/ok (a downgrade, which clients must refuse)
  /up          302 to /ok on this server (https to https, which clients follow)

usage: tls_server.py PORT HTTP_PORT FOLDER
"""
import http.server, os, ssl, subprocess, sys

port, http_port, folder = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1", "-keyout", key, "-out", cert],
               check=True, capture_output=True)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if self.path in ("/down", "/up"):
            target = f"http://127.0.0.1:{http_port}/ok" if self.path == "/down" else "/ok"
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = b"secure"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
# A client that connects and leaves without a handshake (the readiness probe) costs an
# OSError in accept, which the server skips.
server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
