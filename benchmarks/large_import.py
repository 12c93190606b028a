#!/usr/bin/python3
"""Large imports: peak memory of beautyctl and beautyd, and time, for big .ics and vCard files.

    /usr/bin/python3 benchmarks/large_import.py [--bin .build/release] [--ics-mb 50 200] [--contacts 300000]

For each size it writes an .ics of single events (UID, DTSTAMP, CREATED, LAST-MODIFIED, SEQUENCE,
DTSTART/DTEND in a TZID whose VTIMEZONE is at the end of the file, SUMMARY, LOCATION, a DESCRIPTION of
about 480 bytes, a VALARM) until the file has the size asked, starts a fresh beautyd (so its peak
RSS, VmHWM, is this import's) and runs `beautyctl import FILE --json` under `/usr/bin/time -v`.
Then the same for a vCard file of --contacts cards. `--piece-bytes 1000000000` reads the .ics whole, as
beautyctl did before it read large files in pieces. Prints one line per case, and the
figures as JSON at the end.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, Session  # noqa: E402

# About 880 bytes an event: a 200 MB file has some 227,000 events, under the 250,000 one import holds.
DESCRIPTION = ("Bring the colour chart\\, arrive ten minutes early\\; parking behind the salon. " * 6).strip()


def write_ics(path, megabytes):
    target = megabytes * 1_000_000
    written = 0
    i = 0
    with open(path, "w", newline="") as f:
        head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//beautyd bench//EN\r\n"
        f.write(head)
        written += len(head)
        while written < target:
            day, minute = divmod(i, 40)
            start = f"2031{1 + day // 28 % 12:02d}{1 + day % 28:02d}T{8 + minute // 4:02d}{minute % 4 * 15:02d}00"
            event = ("BEGIN:VEVENT\r\n"
                     f"UID:large-{i}@beautyd-bench\r\nDTSTAMP:20260101T000000Z\r\nCREATED:20260101T000000Z\r\n"
                     f"LAST-MODIFIED:20260101T000000Z\r\nSEQUENCE:0\r\n"
                     f"DTSTART;TZID=Salon Time:{start}\r\nDURATION:PT45M\r\n"
                     f"SUMMARY:Appointment {i}\r\nLOCATION:Salon {i % 17}\\, Main Street {i % 90}\r\n"
                     f"DESCRIPTION:{DESCRIPTION}\r\n"
                     "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT1H\r\nDESCRIPTION:Reminder\r\nEND:VALARM\r\n"
                     "END:VEVENT\r\n")
            f.write(event)
            written += len(event)
            i += 1
        f.write("BEGIN:VTIMEZONE\r\nTZID:Salon Time\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\n"
                "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n")
    return i


def write_vcf(path, count):
    with open(path, "w", newline="") as f:
        for i in range(count):
            f.write(f"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Client {i}\r\nTEL:+48 600 {100000 + i}\r\nEND:VCARD\r\n")


def timed(session, args, env):
    """beautyctl ARGS under /usr/bin/time -v: (exit status, seconds, peak RSS in MiB, output)."""
    started = time.monotonic()
    run = subprocess.run(["/usr/bin/time", "-v", session.beautyctl, *args], env=dict(session.env, **env), capture_output=True, text=True)
    seconds = time.monotonic() - started
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
    said = run.stdout + run.stderr.split("\tCommand being timed")[0]
    return run.returncode, seconds, int(peak.group(1)) / 1024 if peak else None, said


def daemon_peak_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return None


def case(bin_dir, name, path, args, env):
    session = Session(bin_dir, prefix="bli-")
    try:
        session.start_bus()
        session.start_daemon()
        status, seconds, ctl_peak, output = timed(session, args + [path], env)
        result = {"case": name, "file_mb": round(os.path.getsize(path) / 1e6, 1), "exit": status,
                  "seconds": round(seconds, 1), "beautyctl_peak_mib": round(ctl_peak, 1) if ctl_peak else None,
                  "beautyd_peak_mib": round(daemon_peak_mib(session.daemon.pid), 1),
                  "output": " ".join(output.split())[:300]}
        print(f"{name}: exit {status}, {seconds:.1f} s, beautyctl peak {result['beautyctl_peak_mib']} MiB, "
              f"beautyd peak {result['beautyd_peak_mib']} MiB — {result['output']}", flush=True)
        return result
    finally:
        session.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--ics-mb", type=int, nargs="*", default=[50, 200])
    parser.add_argument("--contacts", type=int, default=300_000)
    parser.add_argument("--dir", default="/tmp")
    parser.add_argument("--piece-bytes", type=int, help="BEAUTYCTL_IMPORT_PIECE_BYTES (larger than the file: read whole, as before)")
    args = parser.parse_args()
    env = {"BEAUTYCTL_IMPORT_PIECE_BYTES": str(args.piece_bytes)} if args.piece_bytes else {}
    results = []
    for megabytes in args.ics_mb:
        path = os.path.join(args.dir, f"bench-large-{megabytes}mb.ics")
        events = write_ics(path, megabytes)
        try:
            results.append(dict(case(args.bin, f"{megabytes} MB .ics ({events} events)", path, ["import", "--json"], env), events=events))
        finally:
            os.unlink(path)
    if args.contacts:
        path = os.path.join(args.dir, f"bench-{args.contacts}.vcf")
        write_vcf(path, args.contacts)
        try:
            results.append(case(args.bin, f"{args.contacts} contacts", path, ["contact", "import", "--json"], env))
        finally:
            os.unlink(path)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
