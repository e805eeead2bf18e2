"""Hosts on one machine, each in a network namespace of its own, joined by a bridge: a cut,
a delay or a loss between any two of them is a real one, the kernel's, below every socket
of the processes that run there.

Each host has one veth pair (its `eth0` in the namespace, the other end on the bridge) and
an address on the lab's /24; the bridge has the `.1` of it, so this process, in the
machine's own namespace, reaches every host and is never cut off from them (the driver of
the load and the checker's reads stand outside the faults, like Jepsen's control node).
Inside each namespace an nftables table drops everything that goes to or comes from the
addresses in its set `cut`, and one packet in LOSS_PERCENT of what goes to or comes from
those in its set `lossy`; an `htb` qdisc sends what goes to the addresses a `u32` filter
names through a narrow class, whose queue is the delay. A cut is two set elements, a slow
link two elements and two filters. (`netem` would say delay and loss directly, but kernels
without `sch_netem`, this sandbox's among them, are common; htb, u32 and nftables are in
every Debian kernel.)

Making namespaces needs root (CAP_NET_ADMIN) and Debian's iproute2 and nftables: `why_not()`
says what is missing, for a suite to skip with.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

# One /24 per lab, picked free among these, so labs of runs side by side never meet.
NETWORKS = range(10, 250)
FIRST_HOST = 10  # .1 is the bridge
SLOW_KBIT = 256  # a slow link's rate each way

LOSS_PERCENT = 20  # of the packets between two hosts a slow link drops (TCP resends them)

_RULES = f"""
table inet fault {{
    set cut {{ type ipv4_addr; }}
    set lossy {{ type ipv4_addr; }}
    chain incoming {{
        type filter hook input priority 0;
        ip saddr @cut drop;
        ip saddr @lossy numgen random mod 100 < {LOSS_PERCENT} drop;
    }}
    chain outgoing {{
        type filter hook output priority 0;
        ip daddr @cut drop;
        ip daddr @lossy numgen random mod 100 < {LOSS_PERCENT} drop;
    }}
}}
"""


def _run(*argv: str) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {done.stderr.strip() or done.returncode}")
    return done.stdout


def _tc(namespace: str, command: str) -> None:
    _run("tc", "-n", namespace, *command.split())


def why_not() -> str | None:
    """Why this machine cannot make a lab (None: it can)."""
    if os.geteuid() != 0:
        return "network namespaces need root (CAP_NET_ADMIN); run the fault suite as root"
    for tool, package in (("ip", "iproute2"), ("tc", "iproute2"), ("nft", "nftables")):
        if shutil.which(tool) is None:
            return f"`{tool}` is missing: install Debian's {package}"
    probe = f"dhprobe{os.getpid()}"
    try:
        _run("ip", "netns", "add", probe)
        _run("ip", "netns", "exec", probe, "nft", "list", "tables")
    except (RuntimeError, OSError) as exc:
        return f"cannot make a network namespace here: {exc}"
    finally:
        with contextlib.suppress(RuntimeError, OSError):
            _run("ip", "netns", "del", probe)
    return None


@dataclass
class Host:
    """One host of the lab: `ip` is its address, `namespace` the network namespace its
    processes run in (`command` wraps a command line so that it does)."""

    name: str
    ip: str
    namespace: str
    link: str  # the veth's end on the bridge
    cut: set[str] = field(default_factory=set)  # addresses it cannot reach now
    lossy: set[str] = field(default_factory=set)  # addresses its slow links go to now

    def command(self, argv: Sequence[str]) -> list[str]:
        return ["ip", "netns", "exec", self.namespace, *argv]

    def run(self, *argv: str, stdin: str | None = None) -> str:
        done = subprocess.run(
            self.command(argv), input=stdin, capture_output=True, text=True, timeout=30
        )
        if done.returncode != 0:
            raise RuntimeError(f"{self.name}: {' '.join(argv)}: {done.stderr.strip()}")
        return done.stdout


class Lab:
    """A bridge and the hosts on it; `close()` removes every namespace and link it made."""

    def __init__(self) -> None:
        self.hosts: dict[str, Host] = {}
        self.network, self.bridge = self._claim()
        atexit.register(self.close)  # namespaces outlive their processes: never leave one

    @staticmethod
    def _claim() -> tuple[int, str]:
        taken = _run("ip", "-o", "-4", "addr", "show")
        for network in NETWORKS:
            bridge = f"dhlab{network}"
            if f" 10.213.{network}." in taken or Path(f"/sys/class/net/{bridge}").exists():
                continue
            try:
                _run("ip", "link", "add", bridge, "type", "bridge")
            except RuntimeError:
                continue  # another lab took it between the look and the claim
            _run("ip", "addr", "add", f"10.213.{network}.1/24", "dev", bridge)
            _run("ip", "link", "set", bridge, "up")
            return network, bridge
        raise RuntimeError("no free network for a lab")

    @property
    def gateway(self) -> str:
        return f"10.213.{self.network}.1"

    def host(self, name: str) -> Host:
        number = FIRST_HOST + len(self.hosts)
        namespace = f"{self.bridge}-{name}"
        link = f"dh{self.network}h{number}"  # an interface name holds at most 15 bytes
        host = Host(name, f"10.213.{self.network}.{number}", namespace, link)
        _run("ip", "netns", "add", namespace)
        self.hosts[name] = host
        _run("ip", "link", "add", link, "type", "veth", "peer", "name", "eth0", "netns", namespace)
        _run("ip", "link", "set", link, "master", self.bridge, "up")
        _run("ip", "-n", namespace, "addr", "add", f"{host.ip}/24", "dev", "eth0")
        _run("ip", "-n", namespace, "link", "set", "eth0", "up")
        _run("ip", "-n", namespace, "link", "set", "lo", "up")
        host.run("nft", "-f", "-", stdin=_RULES)
        # Class 1:1 takes everything but what a filter sends to 1:4, the slow link.
        _tc(namespace, "qdisc add dev eth0 root handle 1: htb default 1 r2q 100")
        _tc(namespace, "class add dev eth0 parent 1: classid 1:1 htb rate 10gbit")
        rate = f"rate {SLOW_KBIT}kbit ceil {SLOW_KBIT}kbit quantum 1514"
        _tc(namespace, f"class add dev eth0 parent 1: classid 1:4 htb {rate}")
        return host

    def cut(self, a: Host, b: Host) -> None:
        """Nothing passes between `a` and `b`, either way: packets vanish (no reset, no
        unreachable), as when a switch or a link fails."""
        self._set(a, b.ip, add=True)
        self._set(b, a.ip, add=True)

    def cut_off(self, a: Host, others: Sequence[Host]) -> None:
        """`a` on one side, `others` on the other."""
        for other in others:
            self.cut(a, other)

    def slow(self, a: Host, b: Host) -> None:
        """What passes between `a` and `b` goes through SLOW_KBIT each way, queued (a
        reply of a few KiB waits hundreds of milliseconds), and LOSS_PERCENT of its packets
        are dropped, so TCP resends them after its timeouts."""
        for here, there in ((a, b), (b, a)):
            if there.ip in here.lossy:
                continue
            here.run("nft", "add", "element", "inet", "fault", "lossy", f"{{ {there.ip} }}")
            match = f"u32 match ip dst {there.ip}/32 flowid 1:4"
            _tc(here.namespace, f"filter add dev eth0 parent 1:0 protocol ip prio 1 {match}")
            here.lossy.add(there.ip)

    def heal(self) -> None:
        """Every cut and slow link gone."""
        for host in self.hosts.values():
            for ip in list(host.cut):
                self._set(host, ip, add=False)
            if host.lossy:
                host.run("nft", "flush", "set", "inet", "fault", "lossy")
                _tc(host.namespace, "filter del dev eth0 parent 1:0")
                host.lossy.clear()

    def _set(self, host: Host, ip: str, add: bool) -> None:
        verb = "add" if add else "delete"
        if add == (ip in host.cut):
            return
        host.run("nft", verb, "element", "inet", "fault", "cut", f"{{ {ip} }}")
        if add:
            host.cut.add(ip)
        else:
            host.cut.discard(ip)

    def close(self) -> None:
        for host in self.hosts.values():
            with contextlib.suppress(RuntimeError, OSError):
                _run("ip", "netns", "del", host.namespace)
            with contextlib.suppress(RuntimeError, OSError):
                _run("ip", "link", "del", host.link)  # gone with its peer, as a rule
        with contextlib.suppress(RuntimeError, OSError):
            _run("ip", "link", "del", self.bridge)
        self.hosts.clear()
