#!/usr/bin/python3
"""Test ports for Python tests and shell scripts, by tests/support/process.hpp's scheme
(free_port), so that C++ tests, Python tests and the benchmark scripts never share a port:
ports 10000-65535 outside the kernel's ephemeral range (which clients' connect() draws from),
each reserved by an abstract Unix socket "lather-test-port-P" held until the process exits.

  test_ports.py N   reserves N ports, prints them one a line, and holds them until it is
                    stopped (SIGTERM), while the caller's servers bind them: a shell script
                    starts it in the background and stops it by PID (bench/haproxy_scaling.sh).
"""
import random
import signal
import socket
import sys


def test_port_candidates():
    """10000-65535 outside the kernel's ephemeral range (all of them if it covers everything)."""
    low, high = 32768, 60999
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low, high = (int(x) for x in f.read().split()[:2])
    except (OSError, ValueError):
        pass
    return [p for p in range(10000, 65536) if p < low or p > high] or list(range(10000, 65536))


RESERVED = []  # the reservations' sockets, open until the process exits


def reserve_port(port):
    """Reserves port for this process as process.hpp's reserve_port does: True if no process
    had and nothing is bound to it."""
    lock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        lock.bind("\0lather-test-port-%d" % port)
        with socket.socket() as probe:  # every address, no SO_REUSEADDR: nothing bound to it
            probe.bind(("", port))
    except OSError:
        lock.close()
        return False
    RESERVED.append(lock)
    return True


def free_port():
    """A loopback port reserved for this process (process.hpp: free_port)."""
    ports = test_port_candidates()
    start = random.randrange(len(ports))
    for port in ports[start:] + ports[:start]:
        if reserve_port(port):
            return port
    raise RuntimeError("no test port left")


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.exit("usage: test_ports.py N")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    for _ in range(int(sys.argv[1])):
        print(free_port())
    sys.stdout.flush()
    while True:
        signal.pause()


if __name__ == "__main__":
    main()
