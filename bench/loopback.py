"""What the benchmarks' loopback APIs share: a threaded HTTP server on 127.0.0.1 that answers
every GET with what `answer(path)` returns, `(status, content type, body bytes)`, and logs nothing.
"""
import http.server


def serve(port, answer):
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            status, content_type, body = answer(self.path)
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
