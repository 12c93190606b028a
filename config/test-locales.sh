#!/usr/bin/env bash
# Generates the locales the translation tests run programs under (LANG=pl_PL.UTF-8, sk_SK.UTF-8):
# GNU gettext and glibc fall back to C for a locale that is not generated. Enables the missing ones
# in /etc/locale.gen and runs locale-gen (Debian's `locales` package, in config/test-packages.txt).
# .ci/run and config/test.sh run it; it does nothing when they exist.
set -euo pipefail

missing=()
for locale in pl_PL sk_SK; do
    locale -a 2>/dev/null | grep -qx "$locale.utf8" || missing+=("$locale")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
for locale in "${missing[@]}"; do
    if grep -qE "^# *$locale\.UTF-8 UTF-8" /etc/locale.gen; then
        $sudo sed -i -E "s/^# *($locale\.UTF-8 UTF-8)/\1/" /etc/locale.gen
    elif ! grep -qE "^$locale\.UTF-8 UTF-8" /etc/locale.gen; then
        echo "$locale.UTF-8 UTF-8" | $sudo tee -a /etc/locale.gen >/dev/null
    fi
done
printf '\033[1m==> %s\033[0m\n' "Generating the locales the tests use: ${missing[*]}"
$sudo locale-gen >/dev/null
