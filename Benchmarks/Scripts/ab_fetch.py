#!/usr/bin/env python3
"""Interleaved A/B of download clients on one URL list: for telling a change of a few percent
from this machine's drift, which moves whole runs by more than that within minutes.

Each round runs every command once, in alternating order; prints each command's median wall
time and its ratio to the first command's, the median CPU time the command used (all its
threads, user and system) and the mean CPU time nginx's workers used while it ran: with two
cores, (command + nginx) / 2 is the least wall time any spreading of that work could reach. Each COMMAND is one quoted string, the program and
its options; the URL list goes in as its first argument. The server must already be running
(compare_fetch.py's nginx, started by hand with its nginx.conf).

usage: ab_fetch.py URL_LIST ROUNDS COMMAND [COMMAND ...]
example: ab_fetch.py /tmp/osprey-bench/fetch/small.txt 41 "OLD/FetchOsprey" "NEW/FetchOsprey"
"""
import os, statistics, subprocess, sys

from measure import run


def nginx_cpu():
    """CPU seconds nginx's worker processes have used so far."""
    workers = subprocess.run(["pgrep", "-f", "nginx: worker"], capture_output=True, text=True).stdout.split()
    ticks = 0
    for pid in workers:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


url_list, rounds, commands = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
times = {command: [] for command in commands}
cpu = {command: [] for command in commands}
server = {command: 0.0 for command in commands}
for r in range(rounds):
    for command in (commands if r % 2 == 0 else commands[::-1]):
        program, *options = command.split()
        before, server_before = os.times(), nginx_cpu()
        times[command].append(run([program, url_list] + options)[0])
        after = os.times()
        server[command] += nginx_cpu() - server_before
        cpu[command].append(after.children_user - before.children_user + after.children_system - before.children_system)
first = statistics.median(times[commands[0]])
print("    wall     ratio   CPU       nginx CPU  (CPU + nginx) / 2")
for command in commands:
    median, used, served = statistics.median(times[command]), statistics.median(cpu[command]), server[command] / rounds
    print(f"{median * 1000:8.1f} ms  {median / first:5.3f}×  {used * 1000:6.0f} ms  {served * 1000:6.0f} ms  "
          f"{(used + served) / 2 * 1000:6.0f} ms  {command}")
