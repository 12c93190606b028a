#!/usr/bin/env python3
"""A CalDAV server on 127.0.0.1:PORT whose every collection is for events only.

It answers PROPFIND with one calendar at whatever path is asked (supported-calendar-component-set:
VEVENT, with the principal /alice/ and the home /alice/ beside), and MKCALENDAR with 201 whatever
component set is asked for: a server that makes a task list it then says takes no tasks. It prints
LISTENING once it listens and one line per request ("MKCALENDAR /alice/x/").

Usage: events_only_caldav.py PORT
"""
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(sys.argv[1])

PROPFIND = """<?xml version="1.0" encoding="utf-8"?>
<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">
<d:response><d:href>{path}</d:href><d:propstat><d:prop>
<d:resourcetype><d:collection/><c:calendar/></d:resourcetype>
<d:displayname>Calendar</d:displayname>
<cs:getctag>"1"</cs:getctag>
<d:current-user-principal><d:href>/alice/</d:href></d:current-user-principal>
<c:calendar-home-set><d:href>/alice/</d:href></c:calendar-home-set>
<c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set>
</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
</d:multistatus>
"""


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Server(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, text=""):
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle_one(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        say(f"{self.command} {self.path}")
        if self.command == "PROPFIND":
            self.answer(207, PROPFIND.format(path=self.path))
        elif self.command == "MKCALENDAR":
            self.answer(201)
        else:
            self.answer(405)

    do_PROPFIND = do_MKCALENDAR = do_REPORT = do_PUT = do_DELETE = do_GET = handle_one


server = ThreadingHTTPServer(("127.0.0.1", PORT), Server)
say("LISTENING")
server.serve_forever()
