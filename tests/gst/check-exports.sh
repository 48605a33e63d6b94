#!/bin/sh
# vmafhip
# Copyright (C) 2026 vmafhip developers
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# The plugin exports its entry points and nothing else: no function of
# ours can be bound in place of another library's (GStreamer 1.28's
# libgsthip has gst_hip_* functions of its own), nor the other way round.
#   check-exports.sh PLUGIN.so
set -eu
plugin=$1
exports=$(nm -D --defined-only "$plugin" | awk '{ print $3 }' | sort)
expected="gst_plugin_vmafhip_get_desc
gst_plugin_vmafhip_register"
if [ "$exports" != "$expected" ]; then
  echo "FAIL: $plugin exports:" >&2
  echo "$exports" >&2
  exit 1
fi
echo "$plugin exports only: $(echo $exports)"
