#!/usr/bin/env python3
"""Interleaved A/B of download clients on one URL list: for telling a change of a few percent
from this machine's drift, which moves whole runs by more than that within minutes.

Each round runs every command once, in alternating order; prints each command's median wall
time and its ratio to the first command's. Each COMMAND is one quoted string, the program and
its options; the URL list goes in as its first argument. The server must already be running
(compare_fetch.py's nginx, started by hand with its nginx.conf).

usage: ab_fetch.py URL_LIST ROUNDS COMMAND [COMMAND ...]
example: ab_fetch.py /tmp/osprey-bench/fetch/small.txt 41 "OLD/FetchOsprey --on-loop" "NEW/FetchOsprey --on-loop"
"""
import statistics, sys

from measure import run

url_list, rounds, commands = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
times = {command: [] for command in commands}
for r in range(rounds):
    for command in (commands if r % 2 == 0 else commands[::-1]):
        program, *options = command.split()
        times[command].append(run([program, url_list] + options)[0])
first = statistics.median(times[commands[0]])
for command in commands:
    median = statistics.median(times[command])
    print(f"{median * 1000:8.1f} ms  {median / first:5.3f}×  {command}")
