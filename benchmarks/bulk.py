#!/usr/bin/python3
"""beautyd bulk benchmarks: a large .ics imported end to end, exported, and a full-range agenda.

    /usr/bin/python3 benchmarks/bulk.py [--items 100000] [--bin .build/release]

Generates an .ics of --items events (mostly single events, a few weekly/monthly series, some with
a VALARM or two, a third pinned to a TZID), starts its own beautyd on temporary XDG directories
and times, with the release beautyctl:

  1. `beautyctl import FILE.ics` into the empty store (end to end: parse, staged import, commit);
  2. `beautyctl export --ics FILE` of everything;
  3. `beautyctl agenda --from 2000-01-01 --to 2100-01-01 --json` with everything in the store;
  4. the full-range agenda paged to one entry (`--limit 1`: all 100,000 are read, filtered, sorted
     and counted, little is sent) without a search and with `--search krakow`, which finds "Kraków"
     in a location by folding every title, note and address for case and diacritics: the
     difference is the search's cost.

Run by benchmarks/run.py (its results go into RESULTS.md's summary); alone it prints them.
"""
import argparse
import datetime
import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ROOT, Session  # noqa: E402

UTC = datetime.timezone.utc
TITLES = ["Haircut", "Manicure", "Pedicure", "Facial", "Brows", "Massage", "Colour", "Lashes", "Waxing", "Spa",
          "Strzyżenie", "Masáž tváre"]
CITIES = ["Kraków", "Łódź", "Žilina", "Main Street"]
ZONES = ["Europe/Paris", "America/New_York", "Asia/Tokyo"]
GOALS = {"import_s": 5.0, "export_s": 1.0, "agenda_s": 1.0}


def write_ics(path, n, seed=7):
    """n VEVENTs over ~4 years from next month: 1 in 200 a weekly or monthly series (bounded by
    COUNT), a third with a TZID, a fifth with one or two VALARMs, some with a location."""
    rng = random.Random(seed)
    base = (int(time.time()) // 86400 + 30) * 86400
    slots = 4 * 365 * 24 * 4
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//beautyd bench//EN"]
    for i in range(n):
        start = datetime.datetime.fromtimestamp(base + rng.randrange(slots) * 900, UTC)
        end = start + datetime.timedelta(seconds=rng.choice([1800, 3600, 5400]))
        lines += ["BEGIN:VEVENT", f"UID:bulk-{i}@beautyd-bench", "DTSTAMP:20260101T000000Z"]
        if i % 3 == 0:
            zone = ZONES[i % len(ZONES)]
            lines += [f"DTSTART;TZID={zone}:{start:%Y%m%dT%H%M%S}", f"DTEND;TZID={zone}:{end:%Y%m%dT%H%M%S}"]
        else:
            lines += [f"DTSTART:{start:%Y%m%dT%H%M%SZ}", f"DTEND:{end:%Y%m%dT%H%M%SZ}"]
        lines.append(f"SUMMARY:{rng.choice(TITLES)} {i}")
        if i % 4 == 0:
            lines.append(f"LOCATION:Salon {i % 17}\\, {CITIES[i // 4 % len(CITIES)]} {i % 90}")
        if i % 200 == 0:
            lines.append("RRULE:" + ("FREQ=WEEKLY;INTERVAL=6;COUNT=10" if i % 400 == 0 else "FREQ=MONTHLY;COUNT=12"))
        if i % 5 == 0:
            for lead in (["-PT1H"] if i % 10 else ["-P1D", "-PT30M"]):
                lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", f"TRIGGER:{lead}", "END:VALARM"]
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    with open(path, "w", newline="") as f:
        f.write("\r\n".join(lines) + "\r\n")


def timed(session, *args):
    t0 = time.monotonic()
    out = session.ctl(*args, check=False)
    elapsed = time.monotonic() - t0
    if out.returncode != 0:
        raise RuntimeError(f"beautyctl {' '.join(args)} failed ({out.returncode}): {out.stderr.strip()[:500]}")
    return elapsed, out


def bench_bulk(bin_dir, items, log=print):
    """The three measures on a fresh daemon; returns a dict of figures."""
    session = Session(bin_dir, prefix="bdb-bulk-")
    try:
        session.start_bus()
        session.start_daemon()
        ics = os.path.join(session.work, "bulk.ics")
        write_ics(ics, items)
        size = os.path.getsize(ics)
        log(f"import of {items:,} events ({size / 1e6:.1f} MB) ...")
        import_s, out = timed(session, "import", ics, "--json")
        imported = json.loads(out.stdout)
        if imported["inserted"] != items:
            raise RuntimeError(f"imported {imported} of {items}")
        exported = os.path.join(session.work, "export.ics")
        log("export --ics ...")
        export_s, _ = timed(session, "export", "--ics", exported)
        log("full-range agenda --json ...")
        agenda_s, out = timed(session, "agenda", "--from", "2000-01-01", "--to", "2100-01-01", "--json")
        agenda = json.loads(out.stdout)
        log("full-range agenda --limit 1, without and with --search krakow ...")
        full_range = ["agenda", "--from", "2000-01-01", "--to", "2100-01-01", "--limit", "1", "--json"]
        unsearched_s, _ = timed(session, *full_range)
        search_s, found = timed(session, *full_range, "--search", "krakow")
        return {"unsearched_s": unsearched_s, "search_s": search_s, "search_entries": json.loads(found.stdout)["total"],
                "items": items, "ics_bytes": size, "import_s": import_s, "import_rate": items / import_s,
                "export_s": export_s, "export_bytes": os.path.getsize(exported), "agenda_s": agenda_s,
                "agenda_bytes": len(out.stdout), "agenda_entries": agenda["total"]}
    finally:
        session.close()


def summary_rows(b):
    """Rows (measure, figure, goal, met) for RESULTS.md's summary and README's Performance table."""
    def met(key):
        return "yes" if b[key] < GOALS[key] else "**no**"
    n = f"{b['items']:,}"
    return [
        [f"`beautyctl import` of a {n}-event .ics ({b['ics_bytes'] / 1e6:.1f} MB), end to end",
         f"{b['import_s']:.2f} s ({b['import_rate']:,.0f} events/s)", "< 5 s", met("import_s")],
        [f"`beautyctl export --ics` of {n} appointments ({b['export_bytes'] / 1e6:.1f} MB)",
         f"{b['export_s']:.2f} s", "< 1 s", met("export_s")],
        [f"`beautyctl agenda --from 2000-01-01 --to 2100-01-01 --json` at {n} "
         f"({b['agenda_entries']:,} entries, {b['agenda_bytes'] / 1e6:.1f} MB)",
         f"{b['agenda_s']:.2f} s", "< 1 s", met("agenda_s")],
        [f"`beautyctl agenda` of the full range at {n}, `--limit 1`, without / with `--search krakow` "
         f"(case and diacritics folded; {b['search_entries']:,} found)",
         f"{b['unsearched_s']:.2f} / {b['search_s']:.2f} s", "—", "—"],
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    args = parser.parse_args()
    b = bench_bulk(args.bin, args.items)
    print(json.dumps(b, indent=2))
    for row in summary_rows(b):
        print(" | ".join(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
