#!/usr/bin/python3
"""Probe a CalDAV server's VTODO handling for docs/PHONE_TASKS.md (issue 25).

Usage: /usr/bin/python3 probe.py BASE_URL USER PASS > transcript.txt
BASE_URL is the principal/home, e.g. http://127.0.0.1:52321/phone/ (Radicale)
or http://127.0.0.1:52322/phone/calendars/ (Xandikos). Loopback only.
Prints every request and response that the design relies on.
"""
import base64, datetime, http.client, sys, urllib.parse, uuid

import caldav

base, user, password = sys.argv[1], sys.argv[2], sys.argv[3]
u = urllib.parse.urlsplit(base)
auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def req(method, path, body=None, headers=None, show_body=True, limit=2500):
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    h = {"Authorization": auth}
    h.update(headers or {})
    data = body.encode() if isinstance(body, str) else body
    conn.request(method, path, body=data, headers=h)
    r = conn.getresponse()
    text = r.read().decode("utf-8", "replace")
    print(f"\n>>> {method} {path}")
    for k, v in (headers or {}).items():
        print(f">>> {k}: {v}")
    if body and show_body:
        print(">>>")
        print(body.strip())
    print(f"<<< {r.status} {r.reason}")
    for k in ("ETag", "Location", "Content-Type"):
        if r.getheader(k):
            print(f"<<< {k}: {r.getheader(k)}")
    if text.strip():
        print("<<<")
        print(text.strip()[:limit])
    return r.status, r.getheader("ETag"), text


X = 'xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/"'
coll = u.path + "leki-" + uuid.uuid4().hex[:6] + "/"

print("=" * 70, "\n1. MKCALENDAR with supported-calendar-component-set VTODO")
req("MKCALENDAR", coll, f'''<?xml version="1.0" encoding="utf-8"?>
<c:mkcalendar {X}><d:set><d:prop><d:displayname>Leki</d:displayname>
<c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set>
</d:prop></d:set></c:mkcalendar>''', {"Content-Type": "application/xml; charset=utf-8"})

print("=" * 70, "\n2. PROPFIND Depth 0 on the new list")
req("PROPFIND", coll, f'''<?xml version="1.0" encoding="utf-8"?>
<d:propfind {X}><d:prop><d:resourcetype/><d:displayname/><cs:getctag/><d:sync-token/>
<c:supported-calendar-component-set/><d:supported-report-set/></d:prop></d:propfind>''',
    {"Depth": "0", "Content-Type": "application/xml; charset=utf-8"})

uid = "beautyd-dose-5d0c8e1f-20261128T070000Z"
vtodo = f"""BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//beautyd//beautyd//EN\r
BEGIN:VTIMEZONE\r
TZID:Europe/Warsaw\r
BEGIN:STANDARD\r
DTSTART:19701025T030000\r
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r
TZOFFSETFROM:+0200\r
TZOFFSETTO:+0100\r
TZNAME:CET\r
END:STANDARD\r
BEGIN:DAYLIGHT\r
DTSTART:19700329T020000\r
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r
TZOFFSETFROM:+0100\r
TZOFFSETTO:+0200\r
TZNAME:CEST\r
END:DAYLIGHT\r
END:VTIMEZONE\r
BEGIN:VTODO\r
UID:{uid}\r
DTSTAMP:20261127T230000Z\r
CREATED:20261127T230000Z\r
LAST-MODIFIED:20261127T230000Z\r
SEQUENCE:0\r
SUMMARY:Witamina D — 1 kapsułka\r
DTSTART;TZID=Europe/Warsaw:20261128T080000\r
DUE;TZID=Europe/Warsaw:20261128T080000\r
STATUS:NEEDS-ACTION\r
CLASS:PRIVATE\r
X-BEAUTYD-KIND:dose\r
X-BEAUTYD-MEDICATION:5d0c8e1f\r
X-BEAUTYD-DUE:20261128T070000Z\r
BEGIN:VALARM\r
ACTION:DISPLAY\r
DESCRIPTION:Witamina D — 1 kapsułka\r
TRIGGER:PT0S\r
END:VALARM\r
END:VTODO\r
END:VCALENDAR\r
"""
href = coll + uid + ".ics"
print("=" * 70, "\n3. PUT a beautyd VTODO (If-None-Match: *)")
st, etag, _ = req("PUT", href, vtodo, {"Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"}, show_body=False)
print("(body: docs/PHONE_TASKS.md 'The VTODO beautyd writes')")

print("=" * 70, "\n4. PUT a VEVENT into the VTODO-only list")
ev = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//probe//EN\r\nBEGIN:VEVENT\r\nUID:probe-event\r\n"
      "DTSTAMP:20261127T230000Z\r\nDTSTART:20261128T070000Z\r\nDTEND:20261128T080000Z\r\nSUMMARY:x\r\n"
      "END:VEVENT\r\nEND:VCALENDAR\r\n")
req("PUT", coll + "probe-event.ics", ev, {"Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"}, show_body=False)

# a second task, due the next day, to see the time-range filters work
uid2 = "beautyd-dose-5d0c8e1f-20261129T070000Z"
req("PUT", coll + uid2 + ".ics", vtodo.replace(uid, uid2).replace("20261128T080000", "20261129T080000")
    .replace("20261128T070000Z", "20261129T070000Z"),
    {"Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"}, show_body=False)

print("=" * 70, "\n5a. REPORT calendar-query: comp-filter VTODO + time-range (RFC 4791 9.9, DTSTART/DUE overlap)")
req("REPORT", coll, f'''<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query {X}><d:prop><d:getetag/></d:prop>
<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO">
<c:time-range start="20261128T000000Z" end="20261128T120000Z"/>
</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>''', {"Depth": "1", "Content-Type": "application/xml; charset=utf-8"})

print("=" * 70, "\n5b. REPORT calendar-query: prop-filter DUE time-range")
req("REPORT", coll, f'''<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query {X}><d:prop><d:getetag/></d:prop>
<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO">
<c:prop-filter name="DUE"><c:time-range start="20261129T000000Z" end="20261130T000000Z"/></c:prop-filter>
</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>''', {"Depth": "1", "Content-Type": "application/xml; charset=utf-8"})

print("=" * 70, "\n5c. REPORT calendar-query: open tasks only (COMPLETED is-not-defined, STATUS not CANCELLED)")
req("REPORT", coll, f'''<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query {X}><d:prop><d:getetag/></d:prop>
<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO">
<c:prop-filter name="COMPLETED"><c:is-not-defined/></c:prop-filter>
<c:prop-filter name="STATUS"><c:text-match negate-condition="yes">CANCELLED</c:text-match></c:prop-filter>
</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>''', {"Depth": "1", "Content-Type": "application/xml; charset=utf-8"})

print("=" * 70, "\n6. sync-collection, initial")
st, _, text = req("REPORT", coll, f'''<?xml version="1.0" encoding="utf-8"?>
<d:sync-collection {X}><d:sync-token></d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>''',
    {"Depth": "0", "Content-Type": "application/xml; charset=utf-8"})
import re
m = re.search(r"<[^>]*sync-token>([^<]+)<", text)
token = m.group(1) if m else ""

print("=" * 70, "\n7. the phone (python3-caldav) lists open tasks with todos() and ticks one with complete()")
client = caldav.DAVClient(url=base, username=user, password=password)
cal = caldav.Calendar(client=client, url=urllib.parse.urljoin(base, coll))
todos = cal.todos()
print("todos() ->", sorted(t.icalendar_component["UID"] for t in todos))
t = [t for t in todos if t.icalendar_component["UID"] == uid][0]
t.complete(completion_timestamp=datetime.datetime(2026, 11, 28, 7, 4, 12, tzinfo=datetime.timezone.utc))
print("todos() after complete() ->", sorted(t.icalendar_component["UID"] for t in cal.todos()))
print("todos(include_completed=True) ->", sorted(t.icalendar_component["UID"] for t in cal.todos(include_completed=True)))

print("=" * 70, "\n8. GET what complete() stored")
st, etag2, _ = req("GET", href, limit=4000)

print("=" * 70, "\n9. sync-collection with the token from step 6 (what a poll sees after the tick)")
req("REPORT", coll, f'''<?xml version="1.0" encoding="utf-8"?>
<d:sync-collection {X}><d:sync-token>{token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>''',
    {"Depth": "0", "Content-Type": "application/xml; charset=utf-8"})

print("=" * 70, "\n10. beautyd writes with the ETag it had before the tick (If-Match stale)")
req("PUT", href, vtodo.replace("STATUS:NEEDS-ACTION", "STATUS:CANCELLED"),
    {"Content-Type": "text/calendar; charset=utf-8", "If-Match": etag or '"none"'}, show_body=False)

print("=" * 70, "\n11. the phone deletes the other task; a poll sees it gone")
req("DELETE", coll + uid2 + ".ics", None, {})
req("REPORT", coll, f'''<?xml version="1.0" encoding="utf-8"?>
<d:sync-collection {X}><d:sync-token>{token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>''',
    {"Depth": "0", "Content-Type": "application/xml; charset=utf-8"})

print("=" * 70, "\n12. uncomplete() (python3-caldav) and GET")
t2 = [t for t in cal.todos(include_completed=True) if t.icalendar_component["UID"] == uid][0]
t2.uncomplete()
req("GET", href, limit=4000)
