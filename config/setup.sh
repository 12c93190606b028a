#!/usr/bin/env bash
# Sets beautyd up for the current user on Debian/Ubuntu: system packages, a release build,
# binaries in ~/.local/bin, shell completions, man pages, the default config, and the systemd
# user units; then starts the daemon. Safe to run again (it upgrades in place).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${BEAUTYD_PREFIX:-$HOME/.local}/bin"
data="${XDG_DATA_HOME:-$HOME/.local/share}"
conf="${XDG_CONFIG_HOME:-$HOME/.config}"
say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# Only what is missing is installed, so a machine that has them all needs no sudo.
missing=()
for package in libsqlite3-dev libsystemd-dev libnotify-dev pkg-config libnotify-bin; do
    dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null | grep -qx installed || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    say "Installing system packages (${missing[*]})"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
else
    say "System packages already installed (SQLite, libsystemd, libnotify)"
fi

cd "$repo"
if [ -n "${BEAUTYD_BIN_DIR:-}" ]; then
    # Programs built already (e.g. by the tests): installed as they are.
    say "Using the programs built in $BEAUTYD_BIN_DIR"
    built="$BEAUTYD_BIN_DIR"
else
    say "Building (release; the first build takes a few minutes)"
    swift build -c release --product beautyd
    swift build -c release --product beautyctl
    swift build -c release --product generate-manual  # swift-argument-parser's, for the man pages
    built="$(swift build -c release --show-bin-path)"
fi

say "Installing beautyd and beautyctl into $bin"
install -d "$bin"
install -m 0755 "$built/beautyd" "$built/beautyctl" "$bin/"

# Where the programs look for them: <prefix>/share/beautyd/po beside <prefix>/bin.
po="$(dirname "$bin")/share/beautyd/po"
say "Installing the translations into $po"
install -d "$po"
install -m 0644 Sources/BeautyLocalization/po/*.po "$po/"

say "Installing shell completions and man pages"
install -d "$data/bash-completion/completions" "$data/zsh/site-functions" "$conf/fish/completions"
"$bin/beautyctl" --generate-completion-script bash > "$data/bash-completion/completions/beautyctl"
"$bin/beautyctl" --generate-completion-script zsh > "$data/zsh/site-functions/_beautyctl"
"$bin/beautyctl" --generate-completion-script fish > "$conf/fish/completions/beautyctl.fish"
# One set of pages per language, whatever the session's: English in man1, Polish and Slovak in
# pl/man1 and sk/man1, where man looks when LANG (or `man -L`) asks for them. The script keeps the
# characters swift-argument-parser's generate-manual would drop (the diacritics of the examples in
# English, every Polish and Slovak letter).
if [ -x "$built/generate-manual" ]; then
    pages="$(mktemp -d)"
    for language in en pl sk; do
        config/man-pages.sh "$language" "$built" "$pages/$language"
        [ "$language" = en ] && target="$data/man/man1" || target="$data/man/$language/man1"
        install -d "$target"
        install -m 0644 "$pages/$language/beautyctl.1" "$pages/$language/beautyd.1" "$target/"
    done
    rm -rf "$pages"
else
    echo "note: no generate-manual in $built: man pages not installed (swift build --product generate-manual builds it)"
fi

if [ ! -e "$conf/beautyd/config.toml" ]; then
    say "Writing the default configuration to $conf/beautyd/config.toml"
    install -d -m 0700 "$conf/beautyd"
    install -m 0600 config/beautyd.toml "$conf/beautyd/config.toml"
fi

say "Installing the systemd user units"
install -d "$conf/systemd/user"
sed "s|%h/.local/bin/beautyd|$bin/beautyd|" systemd/beautyd.service > "$conf/systemd/user/beautyd.service"
install -m 0644 systemd/beautyd.socket "$conf/systemd/user/beautyd.socket"

if systemctl --user show-environment >/dev/null 2>&1; then
    say "Starting beautyd (systemctl --user enable --now beautyd.socket beautyd.service)"
    systemctl --user daemon-reload
    systemctl --user enable --now beautyd.socket beautyd.service
    systemctl --user restart beautyd.service
else
    # No user service manager (a container, an SSH session without lingering): run it directly.
    say "No systemd user manager here: starting beautyd in the background (log: ${XDG_STATE_HOME:-$HOME/.local/state}/beautyd.log)"
    install -d "${XDG_STATE_HOME:-$HOME/.local/state}"
    pkill -INT -x beautyd 2>/dev/null && sleep 1 || true
    nohup "$bin/beautyd" >>"${XDG_STATE_HOME:-$HOME/.local/state}/beautyd.log" 2>&1 &
fi

for _ in $(seq 50); do "$bin/beautyctl" status >/dev/null 2>&1 && break; sleep 0.1; done
"$bin/beautyctl" status
case ":$PATH:" in *":$bin:"*) ;; *) echo "note: add $bin to your PATH (e.g. in ~/.profile)";; esac
