#!/usr/bin/python3
"""Reference reading of Tests/BeautyTestSupport/Fixtures/PhoneTasks/*.ics by the rules R0-R6 of docs/PHONE_TASKS.md §5,
checked against expected.tsv. A check of the table, not beautyd's code (that is Swift, BeautyCore).

    /usr/bin/python3 docs/phone-tasks-lab/read_fixtures.py
"""
import os
import re
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "BeautyTestSupport", "Fixtures", "PhoneTasks")


def props(text):
    """The VTODO's own properties (not its VALARMs'): name -> (params, value); unfolded."""
    text = re.sub(r"\r?\n[ \t]", "", text)
    out, depth, inside = {}, 0, False
    for line in text.splitlines():
        if line == "BEGIN:VTODO":
            inside = True
            continue
        if line == "END:VTODO":
            break
        if not inside:
            continue
        if line.startswith("BEGIN:"):
            depth += 1
        elif line.startswith("END:"):
            depth -= 1
        elif depth == 0:
            head, _, value = line.partition(":")
            name, *params = head.split(";")
            out[name.upper()] = (params, value)
    return out


def utc(value):
    """A DATE-TIME value as basic UTC text; a trailing Z wins over any TZID (python3-caldav)."""
    return value if value.endswith("Z") else None


def read(text):
    p = props(text)
    status = p.get("STATUS", ([], ""))[1].upper() or None
    completed = utc(p["COMPLETED"][1]) if "COMPLETED" in p else None
    has_completed = "COMPLETED" in p
    percent = int(p["PERCENT-COMPLETE"][1]) if "PERCENT-COMPLETE" in p else None
    lastmod = utc(p["LAST-MODIFIED"][1]) if "LAST-MODIFIED" in p else None
    own = p.get("X-BEAUTYD-ANSWER", ([], None))[1]

    def kind():
        if status == "COMPLETED":
            return "taken", completed or lastmod, "R1"
        if status == "CANCELLED":
            return "skipped", lastmod, "R2"
        if percent == 100 and status in (None, "NEEDS-ACTION", "IN-PROCESS"):
            return "taken", completed or lastmod, "R3"
        if has_completed and status is None:
            return "taken", completed, "R4"
        if has_completed and status in ("NEEDS-ACTION", "IN-PROCESS"):
            return "open", None, "R5"
        return "open", None, "R6"

    k, at, rule = kind()
    if own and (own == k or (own in ("skipped", "missed") and k == "skipped")):
        answered = p.get("X-BEAUTYD-ANSWERED", ([], None))[1]
        return "own:" + own, (completed if own == "taken" else answered), "R0"
    return k, at, rule


def main():
    failures = 0
    for line in open(os.path.join(HERE, "expected.tsv"), encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        name, reading, at, rule = line.rstrip("\n").split("\t")
        text = open(os.path.join(HERE, name), encoding="utf-8", newline="").read()
        got = read(text)
        want = (reading, None if at == "-" else at, rule)
        ok = got == want
        failures += not ok
        print(("ok  " if ok else "FAIL"), name, got, "" if ok else f"want {want}")
    sys.exit(1 if failures else 0)


main()
