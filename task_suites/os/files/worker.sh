#!/bin/bash
# Writes a heartbeat counter next to itself every 0.2 s until a file named
# "stop" appears there, its folder is removed, or 10 minutes have passed.
dir="$(cd "$(dirname "$0")" && pwd)"
n=0
while [ -d "$dir" ] && [ ! -e "$dir/stop" ] && [ $n -lt 3000 ]; do
  n=$((n + 1))
  echo "$n" > "$dir/heartbeat.tmp" 2>/dev/null && mv "$dir/heartbeat.tmp" "$dir/heartbeat" 2>/dev/null
  sleep 0.2
done
