#!/usr/bin/env bash
# Runs the whole test suite on Debian/Ubuntu with Swift 6 on PATH: installs the system packages
# the build and the tests need (the libraries, a D-Bus daemon, the Python notification server's
# python3-dbus/python3-gi, dunst under Xvfb, systemd's tools, util-linux's prlimit and setpriv),
# then builds and runs every test. README's test command; .ci/run runs exactly this.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

say "Installing the packages the tests need"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    libsqlite3-dev libsystemd-dev libnotify-dev pkg-config \
    dbus dbus-bin libnotify-bin python3-dbus python3-gi \
    xvfb dunst systemd socat util-linux >/dev/null

cd "$repo"
say "Building beautyd, beautyctl and the tests"
swift build --build-tests
say "Running the tests"
swift test --skip-build
