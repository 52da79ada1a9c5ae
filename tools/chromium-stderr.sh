#!/bin/sh
# Debian's Chromium with what it prints appended to the file $CONQUEST_CHROMIUM_STDERR, for
# tools/browser.py's crash_report: Playwright keeps a browser's output to itself, and a page
# that crashed says only "Target crashed". Kept in the repository (not written at run time)
# so it runs where /tmp is mounted noexec.
exec chromium "$@" 2>>"${CONQUEST_CHROMIUM_STDERR:-/dev/null}"
