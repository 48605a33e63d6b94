#!/bin/sh
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.

# meson install: the example configuration as GPU 0's (what the unit
# vmafhip-monitor@0 reads), unless a configuration is there already: an
# install never overwrites an operator's file. Usage: SOURCE DEST (DEST
# absolute; meson sets DESTDIR, absolute, for a staged install).
set -eu
src=$1
dest=${DESTDIR:-}$2
if [ -e "$dest" ]; then
  [ -n "${MESON_INSTALL_QUIET:-}" ] ||
    echo "Keeping $dest (the example is in the examples directory)"
  exit 0
fi
mkdir -p "$(dirname "$dest")"
cp "$src" "$dest.tmp"
chmod 644 "$dest.tmp"
mv "$dest.tmp" "$dest"
[ -n "${MESON_INSTALL_QUIET:-}" ] || echo "Installing $src to $dest"
