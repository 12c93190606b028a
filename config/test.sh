#!/usr/bin/env bash
# Runs the whole test suite on Debian/Ubuntu with Swift 6 on PATH: installs the system packages
# the build and the tests need (the libraries, a D-Bus daemon, the Python notification server's
# python3-dbus/python3-gi, dunst under Xvfb, systemd's tools, util-linux's prlimit and setpriv),
# then builds and runs every test. README's test command; .ci/run runs exactly this.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# The packages the tests need are listed once, in config/test-packages.txt (.ci/run installs the
# same list); only missing ones are installed.
read -r -a packages <<< "$(tr '\n' ' ' < "$repo/config/test-packages.txt")"
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "Installing the packages the tests need: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# LANG=pl_PL.UTF-8 and sk_SK.UTF-8 need their locales generated.
bash "$repo/config/test-locales.sh"

cd "$repo"
# The layout every Swift file keeps (120 columns; config/swift-format.json): a file that drifts fails here.
say "Checking the Swift files' layout"
swift format lint --strict --recursive --parallel --configuration config/swift-format.json Sources Tests Package.swift
say "Building beautyd, beautyctl and the tests"
swift build --build-tests
# swift-argument-parser's man page generator, which TranslatedManPageTests runs (not part of the above).
swift build --product generate-manual
say "Running the tests"
swift test --skip-build
