#!/usr/bin/python3
"""A CalDAV server that misbehaves on purpose, for beautyd's tests (loopback only).

    hostile_caldav.py PORT TRAP_PORT

One calendar at /cal/ with sync-collection. Every sync-token is refused (403 valid-sync-token), so
each sync lists the whole calendar. It answers a calendar-multiget for any href asked, inventing an
event where it has none (as a hostile server would). Besides its own items it lists HOSTILE hrefs
that lead elsewhere: another host and port (127.0.0.2:TRAP_PORT), another port on this host, and
dot segments out of /cal/. A PROPFIND of "/" names a principal and calendar home on the trap.

The trap listens on 127.0.0.2:TRAP_PORT and 127.0.0.1:TRAP_PORT and answers anything.

Every request is printed on stdout as one line:
    MAIN <METHOD> <path> auth=<yes|no>       (the server)
    TRAP <METHOD> <host:port><path> auth=<yes|no>   (the trap: nothing should ever reach it)

Control (no authentication, for the test only):
    POST /control/hostile-off   stop listing the hostile hrefs
    POST /control/forget        forget every item (the next listing is empty)
    POST /control/items         answers the hrefs held, one a line
    POST /control/put?/cal/x.ics  holds the body at that href (as another client would have put it)
    POST /control/trickle       answers every REPORT from now on a byte a second ("TRICKLE start",
                                "TRICKLE cut" when the client hangs up)
    POST /control/refuse-new    answers the next PUT with If-None-Match: * by 412 without storing it
                                (and, hostile hrefs off, the multiget finds nothing there)
    POST /control/endless?SECONDS  answers every sync-collection REPORT from now on after SECONDS,
                                truncated (507) with a new token each time, so a listing never ends
                                although each request does ("ENDLESS page N" per answer)
    POST /control/elsewhere?URL  a PROPFIND of "/" names URL (another server of the provider) as the
                                principal and calendar home, instead of the trap
    POST /control/redirect?URL  a PROPFIND of /.well-known/caldav is answered 301 to URL
    POST /control/redirect-all?URL  answers every REPORT and PUT 307 to URL from now on (no URL: off)
    POST /control/refuse-match  answers every PUT with If-Match by 412 from now on, storing nothing
    POST /control/script        a JSON body sets all that follows at once; from then on the server
                                serves these events alone, keeps its sync tokens and lists nothing
                                outside /cal/:
        {"events": {"a.ics": "BEGIN:VCALENDAR..."},  resources listed and served as calendar-data
         "nested_xml": 50000,                        every PROPFIND and REPORT answer: elements this deep
         "error": {"status": 500, "body": "..."},    every REPORT answered so
         "listed_extra": 70000}                      sync-collection also lists this many made-up resources
"""
import hashlib
import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT, TRAP = int(sys.argv[1]), int(sys.argv[2])
LOCK = threading.Lock()
ITEMS = {}  # href -> iCalendar text
STATE = {"hostile": True, "generation": 0, "refuse_new": 0, "trickle": False, "endless": None, "elsewhere": None,
         "redirect": None, "refuse_match": False, "redirect_all": None, "keep_tokens": False, "nested": 0, "error": None, "extra": 0}


def hostile_hrefs():
    return [
        f"http://127.0.0.2:{TRAP}/steal/a.ics",
        f"http://127.0.0.1:{TRAP}/cal/b.ics",
        "/cal/../other/c.ics",
        "/cal/%2e%2e/other/d.ics",
        "/cal/%2E%2E%2Fother%2Fe.ics",
    ]


def invented(href):
    uid = "hostile-" + hashlib.sha1(href.encode()).hexdigest()[:12]
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\nBEGIN:VEVENT\r\n"
            f"UID:{uid}\r\nDTSTAMP:20300101T000000Z\r\nDTSTART:20300301T100000Z\r\n"
            f"DTEND:20300301T110000Z\r\nSUMMARY:Planted {uid}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


def etag(text):
    return '"' + hashlib.sha1(text.encode()).hexdigest()[:16] + '"'


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


def nested(depth):
    return '<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">' + "<D:x>" * depth + "</D:x>" * depth + "</D:multistatus>"


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Server(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length).decode("utf-8", "replace") if length else ""

    def answer(self, status, text="", headers=None, content_type="application/xml; charset=utf-8"):
        data = text.encode()
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle_one(self):
        say(f"MAIN {self.command} {self.path} auth={'yes' if self.headers.get('Authorization') else 'no'}")
        body = self.body()
        path = self.path
        if path.startswith("/control/"):
            with LOCK:
                if path == "/control/hostile-off":
                    STATE["hostile"] = False
                elif path == "/control/forget":
                    ITEMS.clear()
                elif path.startswith("/control/put?"):
                    ITEMS[path.split("?", 1)[1]] = body
                elif path == "/control/trickle":
                    STATE["trickle"] = True
                elif path.startswith("/control/redirect-all?"):
                    STATE["redirect_all"] = path.split("?", 1)[1]
                elif path == "/control/refuse-match":
                    STATE["refuse_match"] = True
                elif path == "/control/refuse-new":
                    STATE["refuse_new"] += 1
                elif path.startswith("/control/endless?"):
                    STATE["endless"] = float(path.split("?", 1)[1])
                elif path.startswith("/control/elsewhere?"):
                    STATE["elsewhere"] = path.split("?", 1)[1]
                elif path.startswith("/control/redirect?"):
                    STATE["redirect"] = path.split("?", 1)[1]
                elif path == "/control/script":
                    script = json.loads(body or "{}")
                    ITEMS.clear()
                    ITEMS.update({"/cal/" + name: text for name, text in script.get("events", {}).items()})
                    STATE.update(hostile=False, keep_tokens=True, nested=script.get("nested_xml", 0),
                                 error=script.get("error"), extra=script.get("listed_extra", 0))
                listing = "\n".join(sorted(ITEMS))
            return self.answer(200, listing, content_type="text/plain")
        if self.command in ("PROPFIND", "REPORT") and STATE["nested"]:
            return self.answer(207, nested(STATE["nested"]))
        if self.command == "REPORT" and STATE["error"]:
            return self.answer(STATE["error"]["status"], STATE["error"]["body"], content_type="text/plain; charset=utf-8")
        if self.command == "PROPFIND":
            if path == "/.well-known/caldav" and STATE["redirect"]:
                return self.answer(301, headers={"Location": STATE["redirect"]})
            if path == "/":
                principal = STATE["elsewhere"] or f"http://127.0.0.2:{TRAP}/principal/"
                home = STATE["elsewhere"] or f"http://127.0.0.2:{TRAP}/home/"
                return self.answer(207, f"""<?xml version="1.0"?><D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
<D:response><D:href>/</D:href><D:propstat><D:prop>
<D:current-user-principal><D:href>{escape(principal)}</D:href></D:current-user-principal>
<C:calendar-home-set><D:href>{escape(home)}</D:href></C:calendar-home-set>
</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>""")
            if path != "/cal/":
                return self.answer(404)
            return self.answer(207, f"""<?xml version="1.0"?><D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
<D:response><D:href>/cal/</D:href><D:propstat><D:prop>
<D:resourcetype><D:collection/><C:calendar/></D:resourcetype><D:displayname>Hostile</D:displayname>
<D:sync-token>t{STATE['generation']}</D:sync-token>
<D:supported-report-set><D:supported-report><D:report><D:sync-collection/></D:report></D:supported-report></D:supported-report-set>
</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>""")
        if self.command in ("REPORT", "PUT") and STATE["redirect_all"]:
            return self.answer(307, headers={"Location": STATE["redirect_all"]})
        if self.command == "REPORT" and STATE["trickle"]:
            return self.trickle()
        if self.command == "REPORT" and "sync-collection" in body and STATE["endless"] is not None:
            return self.endless()
        if self.command == "REPORT" and "sync-collection" in body:
            if re.search(r"<[^>]*sync-token>[^<]+<", body) and not STATE["keep_tokens"]:
                return self.answer(403, '<?xml version="1.0"?><D:error xmlns:D="DAV:"><D:valid-sync-token/></D:error>')
            with LOCK:
                STATE["generation"] += 1
                listed = [(href, etag(text)) for href, text in sorted(ITEMS.items())]
                if STATE["hostile"]:
                    listed += [(href, etag(invented(href))) for href in hostile_hrefs()]
                listed += [(f"/cal/extra-{n}.ics", f'"extra-{n}"') for n in range(STATE["extra"])]
                token = f"t{STATE['generation']}"
            responses = "".join(f"<D:response><D:href>{escape(href)}</D:href><D:propstat><D:prop><D:getetag>{escape(tag)}</D:getetag>"
                                "</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>" for href, tag in listed)
            return self.answer(207, f'<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">{responses}<D:sync-token>{token}</D:sync-token></D:multistatus>')
        if self.command == "REPORT":
            hrefs = [h.replace("&amp;", "&") for h in re.findall(r"<[^>]*href>([^<]+)<", body)]
            with LOCK:
                found = [(href, ITEMS.get(href) or invented(href)) for href in hrefs if href in ITEMS or STATE["hostile"]]
            responses = "".join(f"<D:response><D:href>{escape(href)}</D:href><D:propstat><D:prop><D:getetag>{escape(etag(text))}</D:getetag>"
                                f"<C:calendar-data>{escape(text)}</C:calendar-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
                                for href, text in found)
            return self.answer(207, f'<?xml version="1.0"?><D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">{responses}</D:multistatus>')
        if self.command == "PUT":
            with LOCK:
                if self.headers.get("If-None-Match") == "*" and (path in ITEMS or STATE["refuse_new"] > 0):
                    STATE["refuse_new"] = max(0, STATE["refuse_new"] - 1)
                    return self.answer(412)
                if self.headers.get("If-Match") and STATE["refuse_match"]:
                    return self.answer(412)
                ITEMS[path] = body
            return self.answer(201, headers={"ETag": etag(body)})
        if self.command == "DELETE":
            with LOCK:
                ITEMS.pop(path, None)
            return self.answer(204)
        return self.answer(405)

    def endless(self):
        time.sleep(STATE["endless"])
        with LOCK:
            STATE["generation"] += 1
            page = STATE["generation"]
        self.answer(207, '<?xml version="1.0"?><D:multistatus xmlns:D="DAV:"><D:response><D:href>/cal/</D:href>'
                    '<D:status>HTTP/1.1 507 Insufficient Storage</D:status></D:response>'
                    f'<D:sync-token>t{page}</D:sync-token></D:multistatus>')
        say(f"ENDLESS page {page}")

    def trickle(self):
        text = '<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">' + " " * 2000 + "</D:multistatus>"
        self.send_response(207)
        self.send_header("Content-Type", "application/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        say("TRICKLE start")
        try:
            for byte in text.encode():
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(1)
        except OSError:
            say("TRICKLE cut")
            self.close_connection = True

    do_PROPFIND = do_REPORT = do_PUT = do_DELETE = do_POST = do_GET = handle_one


class Trap(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def handle_one(self):
        host = f"{self.server.server_address[0]}:{self.server.server_address[1]}"
        say(f"TRAP {self.command} {host}{self.path} auth={'yes' if self.headers.get('Authorization') else 'no'}")
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.send_response(204 if self.command == "DELETE" else 201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_PROPFIND = do_REPORT = do_PUT = do_DELETE = do_POST = do_GET = handle_one


def serve(server):
    threading.Thread(target=server.serve_forever, daemon=True).start()


serve(ThreadingHTTPServer(("127.0.0.2", TRAP), Trap))
serve(ThreadingHTTPServer(("127.0.0.1", TRAP), Trap))
say("LISTENING")
ThreadingHTTPServer(("127.0.0.1", PORT), Server).serve_forever()
