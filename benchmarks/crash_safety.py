#!/usr/bin/python3
"""Crash safety: kill -9 beautyd again and again under load; nothing answered may be lost.

Starts a private session bus, the test notification server and beautyd on temporary XDG
directories; CLIENTS threads (each its own connection) send ADDS `appointment.add` requests in
all; at random moments (spread over the run) beautyd is killed with SIGKILL KILLS times and
started again, and the clients reconnect and continue. Every add that got an answer is recorded.
Every REMINDER_EVERY-th appointment carries an absolute reminder due a few seconds later, i.e.
during the run, so deliveries race with the kills.

At the end (after the reminders' catch-up) beautyd is stopped and checked:
  - every answered add is in the database with its id and title,
  - `PRAGMA integrity_check` says ok (python sqlite3 on the database file),
  - no reminder was shown twice (Notify calls per title in the server's log, counting titles
    listed in "missed while away" groups too), and none whose add was answered was lost.
Prints a summary; exits 1 on any violation.

    /usr/bin/python3 benchmarks/crash_safety.py [--adds 10000] [--kills 5] [--clients 6]
                                                [--duration SECONDS] [--bin .build/debug | .build/release]

With --around-instants, kill -9 lands around reminders' instants instead: --reminders (400)
reminders, 10 due at each instant, instants a second apart, `scheduling.commit_ahead_ms` set to
--commit-ahead-ms (50: a window wide enough to aim at; beautyd's default is 5). At --kills (default
20 there) instants chosen at random, beautyd is killed once, aimed in turn at each of four windows:
before the commit ahead, between the commit and the instant, in the first 6 ms after the instant (the
Notify calls and the records after them), and after the records; it is started again at once. Where
each kill really landed is read from the ledger right after it (nothing committed for the instant
yet / committed, not recorded / recorded) and the server's log (how many of the instant's Notify
calls it had received), and the count of kills per window is printed. Checks: none shown twice; none
lost, apart from those beautyd records as interrupted while being shown (counted as shown: at most
once), reported apart.

    /usr/bin/python3 benchmarks/crash_safety.py --around-instants [--reminders 400] [--kills 20]
                                                [--commit-ahead-ms 50]
"""
import argparse
import datetime
import os
import random
import sqlite3
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hardening_stack import DEFAULT_BIN, LineReader, Stack, call, connect  # noqa: E402

import json  # noqa: E402


def iso(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adds", type=int, default=10000)
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--reminder-every", type=int, default=25, help="every Nth add carries a reminder")
    parser.add_argument("--reminder-lead", type=float, default=4.0, help="max seconds from add to its reminder")
    parser.add_argument("--duration", type=float, default=0.0,
                        help="pace the adds so the run takes at least this many seconds (0: as fast as possible)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--bin", default=DEFAULT_BIN)
    parser.add_argument("--around-instants", action="store_true", help="kill around reminders' instants (see above)")
    parser.add_argument("--reminders", type=int, default=400, help="with --around-instants: how many reminders")
    parser.add_argument("--commit-ahead-ms", type=int, default=50,
                        help="with --around-instants: scheduling.commit_ahead_ms of the daemon")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    if args.around_instants:
        return around_instants(args, seed, rng)

    stack = Stack(args.bin, notification_server=True, prefix="bdc-")
    violations = []
    try:
        stack.start_daemon()
        lock = threading.Lock()
        next_index = [0]
        answered = {}          # id -> title
        reminded = {}          # title -> due time, of every add that asked for a reminder
        reminded_answered = set()
        unanswered = [0]
        error_answers = []
        reconnects = [0]
        done = threading.Event()
        daemon_ready = threading.Event()
        daemon_ready.set()
        start_time = time.time()
        far = int(time.time()) + 30 * 86400

        def client(number):
            sock, reader = None, None
            rid = 0
            while True:
                with lock:
                    i = next_index[0]
                    if i >= args.adds:
                        break
                    next_index[0] += 1
                if args.duration > 0:
                    delay = start_time + i * args.duration / args.adds - time.time()
                    if delay > 0:
                        time.sleep(delay)
                title = f"crash-{seed}-{i}"
                params = {"title": title, "start": iso(far + i * 60)}
                if i % args.reminder_every == 0:
                    due = int(time.time() + 1 + rng.random() * args.reminder_lead) + 1
                    params["reminders"] = [{"at": iso(due)}]
                    with lock:
                        reminded[title] = due
                rid += 1
                try:
                    if sock is None:
                        deadline = time.time() + 60
                        while True:
                            daemon_ready.wait(60)
                            try:
                                sock = connect(stack.socket_path, timeout=30)
                                reader = LineReader(sock)
                                break
                            except OSError:
                                if time.time() > deadline:
                                    raise
                                time.sleep(0.02)
                    request = {"jsonrpc": "2.0", "id": rid, "method": "appointment.add", "params": params}
                    sock.sendall(json.dumps(request).encode() + b"\n")
                    answer = json.loads(reader.line())
                except (OSError, ValueError):
                    # The daemon died with this request in flight: it may or may not be stored.
                    with lock:
                        unanswered[0] += 1
                        reconnects[0] += 1
                    if sock:
                        sock.close()
                    sock = None
                    continue
                with lock:
                    if "result" in answer and answer.get("id") == rid:
                        result = answer["result"]
                        got = result.get("appointment", result)
                        answered[got["id"]] = got["title"]
                        if got["title"] != title:
                            violations.append(f"add {title!r} answered with title {got['title']!r}")
                        if "reminders" in params:
                            reminded_answered.add(title)
                    else:
                        error_answers.append(answer)
            if sock:
                sock.close()

        threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(args.clients)]
        for t in threads:
            t.start()

        # Kill at random points of progress (5%..95% of the adds), a random few ms after it.
        kill_points = sorted(rng.sample(range(int(args.adds * 0.05), int(args.adds * 0.95)), args.kills)) if args.kills else []
        kills = 0
        restart_times = []
        for point in kill_points:
            while next_index[0] < point and any(t.is_alive() for t in threads):
                time.sleep(0.005)
            time.sleep(rng.random() * 0.05)
            daemon_ready.clear()
            stack.kill_daemon()
            kills += 1
            began = time.time()
            stack.start_daemon()
            restart_times.append(time.time() - began)
            daemon_ready.set()
        for t in threads:
            t.join()
        run_seconds = time.time() - start_time

        # Let every reminder come due and be delivered (catch-up included).
        last_due = max(reminded.values(), default=time.time())
        wait_until = max(time.time(), last_due) + 20
        counts = {}
        while True:
            counts = count_deliveries(stack.notifications(), set(reminded))
            if all(counts.get(t, 0) >= 1 for t in reminded_answered) and time.time() > last_due + 2:
                break
            if time.time() > wait_until:
                break
            time.sleep(0.2)
        status = stack.stop_daemon()

        # The database, with the daemon stopped.
        db = sqlite3.connect(stack.database_path)
        integrity = db.execute("PRAGMA integrity_check").fetchall()
        stored = dict(db.execute("SELECT id, title FROM appointment").fetchall())
        interrupted = interrupted_titles(db)
        db.close()
        if integrity != [("ok",)]:
            violations.append(f"integrity_check: {integrity[:5]}")
        missing = [(i, t) for i, t in answered.items() if stored.get(i) != t]
        for i, t in missing[:10]:
            violations.append(f"answered add #{i} {t!r} not in the database (found {stored.get(i)!r})")
        if len(missing) > 10:
            violations.append(f"... {len(missing) - 10} more answered adds missing")
        duplicates, lost_in_flight, lost = shown_outcome(counts, reminded_answered, interrupted)
        for t, c in list(duplicates.items())[:10]:
            violations.append(f"reminder {t!r} delivered {c} times")
        for t in lost[:10]:
            violations.append(f"reminder {t!r} (add answered) never delivered")
        if len(lost) > 10:
            violations.append(f"... {len(lost) - 10} more reminders never delivered")
        for answer in error_answers[:5]:
            violations.append(f"an add got an error answer: {answer}")
        if status not in (0, None):
            violations.append(f"beautyd exited with {status} at the final SIGINT")

        print(f"crash safety (seed {seed}, {stack.built})")
        print(f"  adds sent            {args.adds} from {args.clients} clients in {run_seconds:.1f} s")
        print(f"  answered adds        {len(answered)} (all checked in the database: {len(answered) - len(missing)} present)")
        print(f"  unanswered (in flight at a kill) {unanswered[0]}; error answers {len(error_answers)}")
        print(f"  kill -9              {kills} (restart to answering: "
              f"{', '.join(f'{t:.2f}' for t in restart_times) or '-'} s)")
        print(f"  rows in database     {len(stored)}")
        print(f"  integrity_check      {integrity[0][0] if integrity else '?'}")
        print(f"  reminders            {len(reminded)} asked ({len(reminded_answered)} answered), "
              f"{sum(1 for t in reminded if counts.get(t, 0) >= 1)} delivered, "
              f"{len(duplicates)} delivered more than once, {len(lost)} lost, "
              f"{len(lost_in_flight)} interrupted by a kill while being shown (counted as shown: at most once)")
        print(f"  Notify calls         {len(stack.notifications())}")
        return verdict(violations, stack)
    finally:
        stack.close(keep=bool(violations))


def iso_ms(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).isoformat(timespec="milliseconds")


# The windows a kill around an instant can land in, in the order a delivery passes them.
WINDOWS = ("before the commit ahead", "committed, before the instant", "committed, instant come, not recorded",
           "recorded")


def around_instants(args, seed, rng, per_instant=10, lead=6.0):
    """kill -9 at random points around the ledger's commit ahead of an instant and the instant itself."""
    kills_wanted = args.kills if "--kills" in sys.argv else 20
    ahead = args.commit_ahead_ms / 1000
    instants = (args.reminders + per_instant - 1) // per_instant
    stack = Stack(args.bin, notification_server=True, prefix="bdi-")
    os.makedirs(f"{stack.work}/config/beautyd")
    with open(f"{stack.work}/config/beautyd/config.toml", "w") as f:
        f.write(f"[scheduling]\ncommit_ahead_ms = {args.commit_ahead_ms}\n")
    violations = []
    try:
        stack.start_daemon()
        first = int(time.time() + lead) + 1
        due = {}
        with connect(stack.socket_path, timeout=30) as sock:
            reader = LineReader(sock)
            for i in range(args.reminders):
                at = first + i // per_instant
                title = f"instant-{seed}-{i}"
                answer = call(sock, "appointment.add", {"title": title, "start": iso_ms(at + 3600),
                                                        "reminders": [{"at": iso_ms(at)}]}, i + 1, reader)
                if "result" not in answer:
                    violations.append(f"add {title!r}: {answer}")
                due[title] = at
        if time.time() >= first - 0.5:
            violations.append("adding the reminders took longer than the lead")
        # A kill at most every other instant: the restart (a fraction of a second here) must be over.
        killed_at = sorted(rng.sample(range(0, instants, 2), min(kills_wanted, (instants + 1) // 2)))
        # Aimed at each window in turn (from the instant, in seconds); where it landed is read afterwards.
        aims = [(-ahead - 0.010, -ahead - 0.001), (-ahead + 0.002, -0.002), (0.0, 0.006), (0.010, 0.030)]
        kills = []
        for n, k in enumerate(killed_at):
            instant = first + k
            target = instant + rng.uniform(*aims[n % len(aims)])
            while time.time() < target - 0.02:
                time.sleep(0.005)
            while time.time() < target:
                pass
            sent = stack.kill_daemon()
            kills.append(landed(stack, instant, sent, {t for t, at in due.items() if at == instant}))
            began = time.time()
            stack.start_daemon()
            kills[-1]["restart"] = time.time() - began

        last_due = first + instants - 1
        deadline = max(time.time(), last_due) + 30
        while True:
            counts = count_deliveries(stack.notifications(), set(due))
            if (all(counts.get(t, 0) >= 1 for t in due) and time.time() > last_due + 2) or time.time() > deadline:
                break
            time.sleep(0.2)
        status = stack.stop_daemon()
        db = sqlite3.connect(stack.database_path)
        interrupted = interrupted_titles(db)
        integrity = db.execute("PRAGMA integrity_check").fetchall()
        db.close()
        duplicates, lost_in_flight, lost = shown_outcome(counts, due, interrupted)
        for t, c in list(duplicates.items())[:10]:
            violations.append(f"reminder {t!r} delivered {c} times")
        for t in lost[:10]:
            violations.append(f"reminder {t!r} never delivered")
        if integrity != [("ok",)]:
            violations.append(f"integrity_check: {integrity[:5]}")
        if status not in (0, None):
            violations.append(f"beautyd exited with {status} at the final SIGINT")
        print(f"crash safety around instants (seed {seed}, {stack.built}, commit_ahead_ms {args.commit_ahead_ms})")
        print(f"  reminders            {len(due)}, {per_instant} at each of {instants} instants a second apart")
        print(f"  kill -9              {len(kills)}; signal sent at ms from the instant, where it landed "
              f"(the ledger's rows of the instant; Notify calls the server had received):")
        for kill in kills:
            print(f"    {kill['offset']:+7.1f} ms  {kill['window']:<40} {kill['notified']}/{per_instant} notified")
        for window in WINDOWS:
            print(f"  kills {window:<40} {sum(1 for k in kills if k['window'] == window)}")
        restarts = ", ".join(f"{k['restart']:.2f}" for k in kills)
        print(f"  restart to answering {restarts} s")
        print(f"  delivered            {sum(1 for t in due if counts.get(t, 0) >= 1)}; "
              f"{len(duplicates)} more than once, {len(lost)} lost, {len(lost_in_flight)} interrupted by a kill "
              f"while being shown (counted as shown: at most once)")
        print(f"  integrity_check      {integrity[0][0] if integrity else '?'}")
        return verdict(violations, stack)
    finally:
        stack.close(keep=bool(violations))


def landed(stack, instant, sent, titles):
    """Where a kill sent at `sent` fell for the deliveries of `instant` (titles): read from the ledger
    the killed daemon left and the notification server's log, before the restart changes either."""
    db = sqlite3.connect(stack.database_path)
    try:
        marks = ",".join("?" * len(titles))
        rows = db.execute(
            "SELECT delivery.state, delivery.committedFor IS NOT NULL FROM delivery "
            "JOIN appointment ON appointment.id = delivery.itemID "
            f"WHERE delivery.itemKind = 'appointment' AND appointment.title IN ({marks})", sorted(titles)).fetchall()
    finally:
        db.close()
    notified = len({c["summary"] for c in stack.notifications() if c.get("summary") in titles})
    if any(state != "pending" for state, _ in rows):
        window = WINDOWS[3]
    elif any(committed for _, committed in rows):
        window = WINDOWS[1] if sent < instant else WINDOWS[2]
    else:
        window = WINDOWS[0]
    return {"offset": (sent - instant) * 1000, "window": window, "notified": notified}


def interrupted_titles(db):
    """Titles of reminders a kill interrupted between "delivering" (written before asking the server) and
    "fired": beautyd counts them as shown, so that nothing is ever shown twice (at most once, by design)."""
    return {row[0] for row in db.execute(
        "SELECT appointment.title FROM delivery JOIN appointment ON appointment.id = delivery.itemID "
        "WHERE delivery.itemKind = 'appointment' AND delivery.lastError LIKE 'interrupted while being shown%'")}


def shown_outcome(counts, expected, interrupted):
    """(titles shown more than once with their counts, never shown but interrupted, never shown otherwise).
    Lost in the few milliseconds between the durable "delivering" and the server receiving Notify is the
    price of never delivering twice: reported, not a violation; any other loss is one."""
    duplicates = {t: c for t, c in counts.items() if c > 1}
    never_shown = sorted(t for t in expected if counts.get(t, 0) == 0)
    return (duplicates, [t for t in never_shown if t in interrupted], [t for t in never_shown if t not in interrupted])


def verdict(violations, stack):
    """Prints the violations (keeping the work directory) and answers the exit code."""
    if violations:
        print("VIOLATIONS:")
        for v in violations:
            print("  " + v)
        print(f"(kept {stack.work} for inspection)")
        return 1
    print("OK")
    return 0


def count_deliveries(calls, titles):
    """How often each title was shown: as a summary, or as a "• title — time" line of a group."""
    counts = {}
    for call in calls:
        summary = call.get("summary", "")
        if summary in titles:
            counts[summary] = counts.get(summary, 0) + 1
        elif "missed while away" in summary:
            for line in call.get("body", "").split("\n"):
                if line.startswith("• "):
                    title = line[2:].split(" — ")[0]
                    if title in titles:
                        counts[title] = counts.get(title, 0) + 1
    return counts


if __name__ == "__main__":
    sys.exit(main())
