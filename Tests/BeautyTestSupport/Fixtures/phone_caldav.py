#!/usr/bin/python3
"""A phone for the dose-task tests: a real CalDAV client (python3-caldav) acting on a task list
as a phone's task app does (docs/PHONE_TASKS.md, "python3-caldav").

    phone_caldav.py URL USER PASSWORD LIST list
        prints one line per open task: UID <tab> SUMMARY (todos(): completed ones are left out)
    phone_caldav.py URL USER PASSWORD LIST complete UID 2026-11-28T07:04:12Z
        ticks the task done at that time (complete(completion_timestamp=...), never the default:
        python3-caldav reads its naive UTC "now" as local time)
    phone_caldav.py URL USER PASSWORD LIST cancel UID
        sets STATUS:CANCELLED, as jtx Board's cancel does
    phone_caldav.py URL USER PASSWORD LIST uncomplete UID
    phone_caldav.py URL USER PASSWORD LIST delete UID

URL is the server, LIST the task list's path on it. Run it with /usr/bin/python3 (Debian's caldav).
Exit 0 when done, 2 for a task that is not there.
"""
import datetime
import sys
import urllib.parse

import caldav


def find(calendar, uid):
    for todo in calendar.todos(include_completed=True):
        if str(todo.icalendar_component["UID"]) == uid:
            return todo
    print(f"no task {uid} in the list", file=sys.stderr)
    sys.exit(2)


def main(argv):
    url, user, password, path, action = argv[1:6]
    rest = argv[6:]
    client = caldav.DAVClient(url=url, username=user, password=password)
    calendar = caldav.Calendar(client=client, url=urllib.parse.urljoin(url, path))
    if action == "list":
        for todo in calendar.todos():
            component = todo.icalendar_component
            print(f"{component['UID']}\t{component.get('SUMMARY', '')}")
    elif action == "complete":
        at = datetime.datetime.strptime(rest[1], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
        find(calendar, rest[0]).complete(completion_timestamp=at)
    elif action == "cancel":
        todo = find(calendar, rest[0])
        todo.icalendar_component["STATUS"] = "CANCELLED"
        todo.save()
    elif action == "uncomplete":
        find(calendar, rest[0]).uncomplete()
    elif action == "delete":
        find(calendar, rest[0]).delete()
    else:
        print(f"unknown action {action}", file=sys.stderr)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
