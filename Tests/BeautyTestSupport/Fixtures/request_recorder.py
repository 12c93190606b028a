#!/usr/bin/python3
"""A Unix socket between beautyctl and beautyd that names every request it passes on.

    request_recorder.py LISTEN_PATH DAEMON_PATH

Prints "ready" once it listens, then "request <method>" for every request line a client sends
(each connection is passed on to DAEMON_PATH as it is, both ways). For tests that count how many
requests a command makes.
"""
import json
import os
import socket
import sys
import threading

listen_path, daemon_path = sys.argv[1], sys.argv[2]
lock = threading.Lock()


def say(line):
    with lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def pump(source, target, record):
    pending = b""
    try:
        while True:
            chunk = source.recv(65536)
            if not chunk:
                break
            if record:
                pending += chunk
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    try:
                        method = json.loads(line).get("method")
                    except ValueError:
                        method = None
                    say("request %s" % method)
            target.sendall(chunk)
    except OSError:
        pass
    finally:
        for end in (source, target):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(client):
    daemon = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    daemon.connect(daemon_path)
    threading.Thread(target=pump, args=(daemon, client, False), daemon=True).start()
    pump(client, daemon, True)


if os.path.exists(listen_path):
    os.unlink(listen_path)
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(listen_path)
server.listen(16)
say("ready")
while True:
    connection, _ = server.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
