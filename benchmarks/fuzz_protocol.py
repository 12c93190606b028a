#!/usr/bin/python3
"""Protocol fuzzing: malformed and hostile JSON-RPC lines must not hurt beautyd.

Starts a private session bus and beautyd on temporary XDG directories, then, all at once:
  - IDLE connections that never send a byte, and SLOW writers that trickle a line that never ends;
  - WORKERS connections sending MESSAGES generated bad lines in pipelined batches: truncated
    requests, deep nesting (up to 100,000 '['), huge numbers, invalid UTF-8, wrong types, random
    bytes, unknown methods, absurd params, and JSON-RPC notifications (no id). After each batch a
    sentinel `status` request: the answers up to it are counted against the lines for which the
    protocol says an answer is due (every line but blank ones and notifications), and each must be
    a JSON-RPC object (bad lines: an `error`);
  - LONG lines of 10 MiB (answered once with "line too long", the connection stays usable);
  - a client flooding 1000-byte junk lines without ever reading its answers (must be pushed back);
  - a well-behaved client calling `status` every few ms: its latency is measured throughout;
  - VmRSS of beautyd sampled every 50 ms (peak reported).
Then an fd-exhaustion phase: beautyd restarted with RLIMIT_NOFILE 64, 150 connections opened
(accept hits EMFILE), all closed, and beautyd must answer again.
Prints a summary; exits 1 on any violation (daemon died, a missing/extra/non-error answer, the
well-behaved client not answered within 10 s, peak RSS above --max-rss-mib).

    /usr/bin/python3 benchmarks/fuzz_protocol.py [--messages 100000] [--idle 300] [--slow 20]
        [--long-lines 3] [--workers 4] [--bin .build/debug]
"""
import argparse
import json
import os
import random
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hardening_stack import DEFAULT_BIN, LineReader, Stack, connect, percentile  # noqa: E402

METHODS = ["status", "appointment.add", "appointment.list", "appointment.show", "appointment.edit",
           "appointment.remove", "appointment.done", "contact.add", "contact.show", "med.add", "med.show",
           "dose.taken", "history", "agenda", "now", "measure.add", "water.add", "budget.add", "tips",
           "no.such.method", "", "appointment.", "\u0000", "Status"]
VALID = [
    b'{"jsonrpc":"2.0","id":1,"method":"status"}',
    b'{"jsonrpc":"2.0","id":2,"method":"appointment.add","params":{"title":"Fuzz","start":"2026-12-01T13:00:00Z"}}',
    b'{"jsonrpc":"2.0","id":"x","method":"appointment.list","params":{"from":"2026-01-01T00:00:00Z"}}',
    b'{"jsonrpc":"2.0","id":3,"method":"appointment.show","params":{"id":1}}',
    b'{"jsonrpc":"2.0","id":4,"method":"med.add","params":{"name":"Fuzzitol","times":["08:00"]}}',
]
HUGE_NUMBERS = ["1e999", "-1e999", "1" + "0" * 400, "-" + "9" * 5000, "1e-999", "9223372036854775808",
                "-9223372036854775809", "0.0000000000000000000000001", "123456789012345678901234567890.5e300"]
WEIRD_VALUES = ["null", "true", "[]", "{}", '"x"', "-1", "0", "1.5", '""', '"\\u0000"', '"\\ud800"',
                '"' + "A" * 10000 + '"', "[" * 50 + "]" * 50]


class Generator:
    def __init__(self, rng):
        self.rng = rng

    def message(self):
        """(line bytes without newline, whether an answer is due, kind)"""
        r = self.rng
        kind = r.choice(["truncated", "nesting", "number", "utf8", "types", "bytes", "method",
                         "params", "notification", "batch", "blank", "garbage_keys"])
        if kind == "truncated":
            base = r.choice(VALID)
            line = base[:r.randrange(1, len(base))]
        elif kind == "nesting":
            depth = r.choice([100, 511, 512, 513, 1000, 10000, 100000])
            shape = r.randrange(4)
            if shape == 0:
                line = b"[" * depth
            elif shape == 1:
                line = b"[" * depth + b"]" * depth
            elif shape == 2:
                line = (b'{"jsonrpc":"2.0","id":5,"method":"status","params":' + b'{"a":' * depth + b"1"
                        + b"}" * depth + b"}")
            else:
                line = b'{"jsonrpc":"2.0","id":' + b"[" * depth + b"]" * depth + b',"method":"status"}'
        elif kind == "number":
            n = r.choice(HUGE_NUMBERS).encode()
            line = r.choice([
                b'{"jsonrpc":"2.0","id":' + n + b',"method":"status"}',
                b'{"jsonrpc":"2.0","id":6,"method":"appointment.show","params":{"id":' + n + b"}}",
                b'{"jsonrpc":"2.0","id":7,"method":"water.add","params":{"ml":' + n + b"}}",
                n,
            ])
        elif kind == "utf8":
            bad = bytes(r.choice([0x80, 0xC0, 0xC3, 0xE2, 0xED, 0xF0, 0xF5, 0xFE, 0xFF]) for _ in range(r.randrange(1, 6)))
            line = r.choice([
                b'{"jsonrpc":"2.0","id":8,"method":"appointment.add","params":{"title":"' + bad
                + b'","start":"2026-12-01T13:00:00Z"}}',
                b'{"jsonrpc":"2.0","id":"' + bad + b'","method":"status"}',
                b'{"jsonrpc":"2.0","id":9,"method":"' + bad + b'"}',
                bad,
            ])
        elif kind == "types":
            v = r.choice(WEIRD_VALUES).encode()
            line = r.choice([
                b'{"jsonrpc":' + v + b',"id":10,"method":"status"}',
                b'{"jsonrpc":"2.0","id":11,"method":' + v + b"}",
                b'{"jsonrpc":"2.0","id":12,"method":"appointment.add","params":' + v + b"}",
                b'{"jsonrpc":"2.0","id":13,"method":"appointment.add","params":{"title":' + v
                + b',"start":' + r.choice(WEIRD_VALUES).encode() + b"}}",
                b'{"jsonrpc":"2.0","id":' + r.choice([b"[1]", b"{}", b"true", b"1.5"]) + b',"method":"status"}',
            ])
        elif kind == "bytes":
            line = bytes(r.randrange(256) for _ in range(r.randrange(1, 300)))
        elif kind == "method":
            m = r.choice(METHODS)
            line = json.dumps({"jsonrpc": "2.0", "id": r.randrange(1 << 40), "method": m + r.choice(["", "x", "."]),
                               "params": {}}).encode()
        elif kind == "params":
            m = r.choice([x for x in METHODS if x])
            params = r.choice([{"id": -1}, {"id": 1 << 62}, {"title": "t" * 5000, "start": "tomorrow"},
                               {"start": "2026-02-30T25:61:00Z", "title": "x"}, {"id": "1"}, [1, 2, 3],
                               {"from": "9999-99-99"}, {"name": "", "times": ["99:99"]}, {"ml": -5},
                               {"cents": 1 << 70, "currency": "XXXX"}])
            line = json.dumps({"jsonrpc": "2.0", "id": r.randrange(1000), "method": m, "params": params}).encode()
        elif kind == "notification":
            # No id: the protocol says no answer, whatever the method (none that changes data).
            m = r.choice(["status", "no.such.method", "appointment.show", "tips", "agenda", "x"])
            line = json.dumps({"jsonrpc": "2.0", "method": m, "params": r.choice([{}, {"id": -1}, [], None])}).encode()
            return line, False, kind
        elif kind == "batch":
            line = b"[" + b",".join(r.choice(VALID) for _ in range(r.randrange(0, 5))) + b"]"
        elif kind == "blank":
            line = r.choice([b"", b" ", b"\t \t", b"\r"])
            return line, False, kind
        else:
            line = json.dumps({"jsonrpc": "2.0", "id": 14, "method": "status",
                               r.choice(["", "\u0000", "id", "params"]) * 2: r.choice([1, None, "x"])}).encode()
        line = line.replace(b"\n", b" ")
        stripped = line[:-1] if line.endswith(b"\r") else line
        if all(c in b" \t" for c in stripped):
            return line, False, "blank"
        return line, True, kind


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--idle", type=int, default=300)
    parser.add_argument("--slow", type=int, default=20)
    parser.add_argument("--long-lines", type=int, default=3, help="how many 10 MiB lines")
    parser.add_argument("--max-rss-mib", type=float, default=512)
    parser.add_argument("--no-emfile", action="store_true", help="skip the fd-exhaustion phase")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--bin", default=DEFAULT_BIN)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)

    stack = Stack(args.bin, notification_server=False, prefix="bdf-")
    violations = []
    lock = threading.Lock()
    stats = {"sent": 0, "due": 0, "answered": 0, "errors": 0, "no_answer_due": 0, "long_sent": 0, "long_answered": 0}
    kinds = {}
    latencies = []
    rss_samples = []
    stop = threading.Event()

    def violation(text):
        with lock:
            if len(violations) < 50:
                violations.append(text)

    try:
        stack.start_daemon()
        baseline_rss = stack.rss_kib()

        def sampler():
            while not stop.is_set():
                kib = stack.rss_kib()
                if kib:
                    rss_samples.append(kib)
                time.sleep(0.05)

        def well_behaved():
            sock = connect(stack.socket_path, timeout=10)
            reader = LineReader(sock)
            n = 0
            while not stop.is_set():
                n += 1
                began = time.monotonic()
                try:
                    sock.sendall(b'{"jsonrpc":"2.0","id":%d,"method":"status"}\n' % n)
                    answer = json.loads(reader.line())
                except (OSError, ValueError) as error:
                    violation(f"the well-behaved client got no answer: {error!r}")
                    return
                latencies.append(time.monotonic() - began)
                if answer.get("id") != n or "result" not in answer:
                    violation(f"the well-behaved client got {answer}")
                time.sleep(0.005)
            sock.close()

        def worker(number, count):
            rng = random.Random(seed * 1000 + number)
            gen = Generator(rng)
            sock = connect(stack.socket_path, timeout=30)
            reader = LineReader(sock)
            remaining, batch_no = count, 0
            while remaining > 0:
                batch = [gen.message() for _ in range(min(args.batch, remaining))]
                remaining -= len(batch)
                batch_no += 1
                sentinel = f"sentinel-{number}-{batch_no}"
                payload = b"".join(line + b"\n" for line, _, _ in batch)
                payload += json.dumps({"jsonrpc": "2.0", "id": sentinel, "method": "status"}).encode() + b"\n"
                due = sum(1 for _, d, _ in batch if d)
                got, errors = 0, 0
                try:
                    sock.sendall(payload)
                    while True:
                        answer = json.loads(reader.line())
                        if answer.get("id") == sentinel:
                            break
                        got += 1
                        if "error" in answer:
                            errors += 1
                        elif "result" not in answer:
                            violation(f"an answer that is neither result nor error: {answer}")
                except (OSError, ValueError) as error:
                    violation(f"worker {number}: connection failed: {error!r}")
                    return
                if got != due:
                    violation(f"batch {sentinel}: {got} answers for {due} lines that needed one "
                              f"(kinds {[k for _, _, k in batch]})")
                with lock:
                    stats["sent"] += len(batch)
                    stats["due"] += due
                    stats["answered"] += got
                    stats["errors"] += errors
                    stats["no_answer_due"] += len(batch) - due
                    for _, _, k in batch:
                        kinds[k] = kinds.get(k, 0) + 1
            sock.close()

        def long_lines(count):
            for i in range(count):
                try:
                    sock = connect(stack.socket_path, timeout=60)
                    reader = LineReader(sock)
                    big = b'{"jsonrpc":"2.0","id":1,"method":"status","params":{"pad":"' + b"x" * (10 << 20) + b'"}}\n'
                    sock.sendall(big)
                    sock.sendall(b'{"jsonrpc":"2.0","id":"after","method":"status"}\n')
                    first = json.loads(reader.line())
                    second = json.loads(reader.line())
                    sock.close()
                except (OSError, ValueError) as error:
                    violation(f"10 MiB line {i}: {error!r}")
                    continue
                with lock:
                    stats["long_sent"] += 1
                    if "error" in first and second.get("id") == "after" and "result" in second:
                        stats["long_answered"] += 1
                    else:
                        violation(f"10 MiB line {i}: answers {str(first)[:200]} / {str(second)[:200]}")

        flood = {"accepted": 0, "sock": None}

        def flooder():
            # Writes junk lines and never reads the answers: beautyd must stop reading it (backpressure)
            # rather than buffer; a write then times out. At most 256 MiB are offered.
            sock = connect(stack.socket_path, timeout=2)
            flood["sock"] = sock
            chunk = (b"x" * 1000 + b"\n") * 1024
            while flood["accepted"] < 256 << 20 and not stop.is_set():
                try:
                    flood["accepted"] += sock.send(chunk)
                except OSError:
                    break

        # Idle connections and slow writers first, held open for the whole run.
        idle = []
        for _ in range(args.idle):
            try:
                idle.append(connect(stack.socket_path, timeout=10))
            except OSError as error:
                violation(f"idle connection {len(idle)} refused: {error!r}")
                break
        slow = []
        for _ in range(args.slow):
            s = connect(stack.socket_path, timeout=10)
            s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"sta')
            slow.append(s)

        def trickle():
            while not stop.is_set():
                for s in slow:
                    try:
                        s.sendall(b"a")
                    except OSError as error:
                        violation(f"a slow writer was cut off: {error!r}")
                        return
                time.sleep(0.2)

        background = [threading.Thread(target=sampler, daemon=True),
                      threading.Thread(target=well_behaved, daemon=True),
                      threading.Thread(target=trickle, daemon=True)]
        for t in background:
            t.start()
        began = time.time()
        per_worker = [args.messages // args.workers + (1 if i < args.messages % args.workers else 0)
                      for i in range(args.workers)]
        workers = [threading.Thread(target=worker, args=(i, n), daemon=True) for i, n in enumerate(per_worker)]
        workers.append(threading.Thread(target=long_lines, args=(args.long_lines,), daemon=True))
        workers.append(threading.Thread(target=flooder, daemon=True))
        for t in workers:
            t.start()
        for t in workers:
            t.join()
        elapsed = time.time() - began
        time.sleep(0.2)
        stop.set()
        for t in background:
            t.join(15)
        fds_during = stack.open_fds()
        alive = stack.daemon.poll() is None
        if not alive:
            violation(f"beautyd died (exit {stack.daemon.returncode})\n{stack.tail()}")
        # The idle connections still work.
        idle_ok = 0
        for s in idle[:20]:
            try:
                s.sendall(b'{"jsonrpc":"2.0","id":"idle","method":"status"}\n')
                if "result" in json.loads(LineReader(s).line()):
                    idle_ok += 1
            except (OSError, ValueError):
                pass
        if idle[:20] and idle_ok != len(idle[:20]):
            violation(f"only {idle_ok} of {len(idle[:20])} idle connections answered afterwards")
        if flood["accepted"] >= 64 << 20:
            violation(f"a client that never reads got {flood['accepted'] >> 20} MiB accepted (no backpressure)")
        for s in idle + slow + ([flood["sock"]] if flood["sock"] else []):
            s.close()
        peak = max(rss_samples, default=0)
        if peak > args.max_rss_mib * 1024:
            violation(f"peak RSS {peak / 1024:.0f} MiB above {args.max_rss_mib} MiB")
        if not latencies:
            violation("the well-behaved client got no answer at all")

        emfile = "skipped"
        if not args.no_emfile and alive:
            emfile = fd_exhaustion(stack, violation)

        print(f"protocol fuzzing (seed {seed}, {stack.built})")
        print(f"  messages sent        {stats['sent']} in {elapsed:.1f} s by {args.workers} workers "
              f"({', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))})")
        print(f"  answers              {stats['answered']} for {stats['due']} lines that needed one "
              f"({stats['errors']} errors); {stats['no_answer_due']} notifications/blank lines, none answered")
        print(f"  10 MiB lines         {stats['long_sent']} sent, {stats['long_answered']} answered 'too long' "
              f"with the connection still usable")
        print(f"  flood, never reading {flood['accepted'] / (1 << 20):.1f} MiB accepted before beautyd stopped reading")
        print(f"  idle connections     {len(idle)} held (daemon fds at the end {fds_during}), slow writers {len(slow)}")
        print(f"  well-behaved client  {len(latencies)} calls, latency p50 {percentile(latencies, 50) * 1000:.1f} ms, "
              f"p99 {percentile(latencies, 99) * 1000:.1f} ms, max {max(latencies, default=float('nan')) * 1000:.1f} ms")
        print(f"  VmRSS                baseline {baseline_rss / 1024:.1f} MiB, peak {peak / 1024:.1f} MiB")
        print(f"  fd exhaustion        {emfile}")
        if violations:
            print("VIOLATIONS:")
            for v in violations:
                print("  " + v[:2000])
            return 1
        print("OK")
        return 0
    finally:
        stop.set()
        stack.close(keep=bool(violations))


def fd_exhaustion(stack, violation, limit=64, connections=150):
    """Restarts beautyd with RLIMIT_NOFILE `limit`, opens more connections than that, closes them."""
    stack.stop_daemon()
    stack.start_daemon(nofile=limit)
    held = []
    for _ in range(connections):
        try:
            held.append(connect(stack.socket_path, timeout=5))
        except OSError:
            break
    time.sleep(1.0)
    if stack.daemon.poll() is not None:
        violation(f"beautyd died when its fds ran out (exit {stack.daemon.returncode})\n{stack.tail()}")
        return "died"
    for s in held:
        s.close()
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            with connect(stack.socket_path, timeout=5) as s:
                s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"status"}\n')
                if "result" in json.loads(LineReader(s).line()):
                    return f"ok ({len(held)} connections against RLIMIT_NOFILE {limit}; answering again after they closed)"
        except (OSError, ValueError):
            pass
        time.sleep(0.2)
    violation(f"beautyd stopped answering after running out of fds\n{stack.tail()}")
    return "not answering"


if __name__ == "__main__":
    sys.exit(main())
