#!/usr/bin/env python3
"""Prints the yearly report for the year in $REPORT_YEAR (and the region in $REPORT_REGION, default ALL)."""
import os, sys
year = os.environ.get("REPORT_YEAR")
if not year:
    sys.exit("report.py: set REPORT_YEAR (e.g. REPORT_YEAR=2023)")
region = os.environ.get("REPORT_REGION", "ALL")
total = sum(int(c) * 37 % 1000 for c in year) + len(region) * 11
print(f"Report {year} region={region} total={total}")
