#!/usr/bin/python3
"""A CalDAV server on loopback that misbehaves on purpose, for beautyd's border tests.

It serves one calendar, /cal/, with the events of its control file, and reads that JSON file again
at every request, so a test changes what it answers between two syncs:
  {"events": {"a.ics": "/path/of/its/text"},  resources listed and served as calendar-data
   "nested_xml": 50000,                       every PROPFIND and REPORT answer: elements this deep
   "error": {"status": 500, "body": "..."},   every REPORT answered so
   "listed_extra": 70000}                     sync-collection also lists this many made-up resources
Prints "listening PORT" once it accepts connections (port 0: the kernel picks a free one).
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from xml.sax.saxutils import escape

CONTROL = sys.argv[1]


def control():
    try:
        with open(CONTROL) as f:
            return json.load(f)
    except FileNotFoundError:
        return {}


def calendar_props():
    return ("<D:resourcetype><D:collection/><C:calendar/></D:resourcetype>"
            "<D:displayname>hostile</D:displayname><D:sync-token>http://h/t1</D:sync-token>"
            "<C:supported-calendar-component-set><C:comp name=\"VEVENT\"/></C:supported-calendar-component-set>"
            "<D:supported-report-set><D:supported-report><D:report><D:sync-collection/></D:report>"
            "</D:supported-report></D:supported-report-set>")


def multistatus(responses, token=None):
    head = '<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
    tail = ("<D:sync-token>%s</D:sync-token>" % token if token else "") + "</D:multistatus>"
    body = [head]
    for href, props in responses:
        body.append("<D:response><D:href>%s</D:href><D:propstat><D:prop>%s</D:prop>"
                    "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>" % (href, props))
    body.append(tail)
    return "".join(body).encode()


def nested(depth):
    return (b'<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">' + b"<D:x>" * depth + b"</D:x>" * depth
            + b"</D:multistatus>")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/xml; charset=utf-8", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length).decode("utf-8", "replace")

    def do_PROPFIND(self):
        self.read_body()
        settings = control()
        if settings.get("nested_xml"):
            return self.answer(207, nested(settings["nested_xml"]))
        self.answer(207, multistatus([("/cal/", calendar_props())]))

    def do_REPORT(self):
        request = self.read_body()
        settings = control()
        if settings.get("nested_xml"):
            return self.answer(207, nested(settings["nested_xml"]))
        if settings.get("error"):
            error = settings["error"]
            return self.answer(error["status"], error["body"].encode(), "text/plain; charset=utf-8")
        events = settings.get("events", {})
        if "sync-collection" in request:
            listed = [("/cal/" + name, "<D:getetag>\"%s\"</D:getetag>" % name) for name in events]
            listed += [("/cal/extra-%d.ics" % n, "<D:getetag>\"extra-%d\"</D:getetag>" % n)
                       for n in range(settings.get("listed_extra", 0))]
            return self.answer(207, multistatus(listed, token="http://h/t1"))
        served = []
        for name, path in events.items():
            with open(path) as f:
                text = f.read()
            served.append(("/cal/" + name, "<D:getetag>\"%s\"</D:getetag><C:calendar-data>%s</C:calendar-data>"
                           % (name, escape(text))))
        self.answer(207, multistatus(served))

    def do_PUT(self):
        self.read_body()
        self.answer(201, b"", headers=[("ETag", '"put"')])

    def do_DELETE(self):
        self.answer(204, b"")


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print("listening %d" % server.server_address[1], flush=True)
server.serve_forever()
