#!/bin/sh
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# Makes DIR a plugin directory holding only the named system plugins (links
# into GStreamer's plugin directory), for GST_PLUGIN_SYSTEM_PATH_1_0: the
# tests then load the plugins they use and not whatever else the machine
# has (third-party plugins' class set-up can leak or crash under valgrind).
# A plugin not installed yet leaves a dangling link, which GStreamer skips
# and which starts working once the package is installed.
#   system-plugins.sh DIR PLUGINSDIR NAME...   (NAME: "app" for libgstapp.so)
set -eu
dir=$1
pluginsdir=$2
shift 2
mkdir -p "$dir"
find "$dir" -maxdepth 1 -type l -name 'libgst*.so' -exec rm -f {} +
for name in "$@"; do
  ln -s "$pluginsdir/libgst$name.so" "$dir/libgst$name.so"
done
