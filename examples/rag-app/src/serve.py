"""A tiny HTTP front end: GET /ask?q=... returns the answer as text.

It uses rag_chat only; the helpers of rag_common are reached through rag_chat.
"""

from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs, urlparse

import rag_chat


class AskHandler(BaseHTTPRequestHandler):
    def do_GET(self):
        query = parse_qs(urlparse(self.path).query).get("q", [""])[0]
        body = rag_chat.answer(query).encode("utf-8") if query else b"pass ?q=your question"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.end_headers()
        self.wfile.write(body)


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 8080), AskHandler).serve_forever()
