#!/usr/bin/env bash
# Writes the man pages of beautyctl and beautyd in one language (en, pl or sk) into OUTDIR as
# beautyctl.1 and beautyd.1, from the programs and swift-argument-parser's generate-manual found in
# BINDIR (`swift build --product generate-manual` builds it beside them).
#
# generate-manual (swift-argument-parser 1.8.2, MDoc/String+Escaping.swift) drops every non-ASCII
# character of the help it reads, so it is given this script as its tool: run with
# --experimental-dump-help, the script runs the real program under the wanted language and spells
# each non-ASCII character as an ASCII token (ą as UNI000105X), which the escaper leaves alone; the
# finished pages get the characters back as UTF-8, which man-db's preconv hands to groff.
#
# Usage: config/man-pages.sh LANGUAGE BINDIR OUTDIR
set -euo pipefail

if [ "${1:-}" = "--experimental-dump-help" ] && [ -n "${BEAUTY_MAN_PROGRAM:-}" ]; then
    # The dump holds ArgumentParser's own help of --help and --version in English (the programs
    # translate it only in a finished help screen); it is taken from the catalog here.
    "$BEAUTY_MAN_PROGRAM" --experimental-dump-help | perl -CSD -0777 -pe '
        if (my $po = $ENV{BEAUTY_MAN_CATALOG}) {
            open my $in, "<:encoding(UTF-8)", $po or die "$po: $!\n";
            my $catalog = do { local $/; <$in> };
            for my $phrase ("Show help information.", "Show the version.") {
                my ($translated) = $catalog =~ /^msgid "\Q$phrase\E"\nmsgstr "(.+)"$/m or die "$po lacks $phrase\n";
                s/"abstract" : "\Q$phrase\E"/"abstract" : "$translated"/g;
            }
        }
        s/UNI[0-9A-F]{6}X/die "the help already holds a token: $&\n"/e;
        s/([^\x00-\x7F])/sprintf("UNI%06XX", ord($1))/ge'
    exit
fi

[ $# -eq 3 ] || { echo "usage: $0 LANGUAGE BINDIR OUTDIR" >&2; exit 2; }
language="$1" bindir="$(cd "$2" && pwd)" outdir="$3"
catalog="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/Sources/BeautyLocalization/po/$language.po"
case "$language" in
    en) locale=C catalog="" ;;
    pl) locale=pl_PL.UTF-8 ;;
    sk) locale=sk_SK.UTF-8 ;;
    *) echo "$0: no man pages in '$language' (en, pl or sk)" >&2; exit 2 ;;
esac

mkdir -p "$outdir"
self="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
for program in beautyctl beautyd; do
    # The programs pick their language from LANGUAGE, LC_ALL, LC_MESSAGES and LANG, in that order.
    env -u LANGUAGE -u LC_MESSAGES PERL_BADLANG=0 LC_ALL="$locale" LANG="$locale" BEAUTY_MAN_CATALOG="$catalog" \
        BEAUTY_MAN_PROGRAM="$bindir/$program" \
        "$bindir/generate-manual" "$self" --authors "beautyd developers" --output-directory "$outdir" >/dev/null
    perl -CSD -i -pe 's/UNI([0-9A-F]{6})X/chr(hex($1))/ge' "$outdir/$program.1"
done
