"""Writes the two-halves scenario of docs/performance.md ("One run on two cores") as TOML.

Two dumbbells, "a-*" and "b-*", joined by one link a-r1 - b-r1 (50 Mbit/s, delay CROSS). Each half
has K consumers and K producers around a 50 Mbit/s bottleneck r1 -> r2 (5 ms, 100 packets); every
consumer fetches from its own half's producer but the last of each half, which fetches across.
Consumers alternate between a fixed window of 16 and AIMD and never finish (the partitioned
prototype runs to the duration).

    python3 scripts/two_halves.py K DURATION [CROSS] > FILE.toml
    target/release/examples/run_partitioned FILE.toml threads 'b-*'
"""

import sys


def link(a: str, b: str, bandwidth: str, delay: str, extra: str = "") -> list:
    return ["", "[[links]]", f'between = ["{a}", "{b}"]', f'bandwidth = "{bandwidth}"',
            f'delay = "{delay}"'] + ([extra] if extra else [])


def scenario(k: int, duration: str, cross: str) -> str:
    out = ["[simulation]", f'duration = "{duration}"', "seed = 7", 'bin = "100ms"', 'routing = "delay"',
           "", "[nodes]"]
    for h in "ab":
        for i in range(k):
            out += [f'"{h}-c{i}" = {{}}', f'"{h}-p{i}" = {{}}']
        out += [f'"{h}-r1" = {{ cs = {{ policy = "lru", capacity = 1000 }} }}', f'"{h}-r2" = {{}}']
    for h in "ab":
        for i in range(k):
            out += link(f"{h}-c{i}", f"{h}-r1", "100Mbps", "1ms")
            out += link(f"{h}-r2", f"{h}-p{i}", "100Mbps", "2ms")
        out += link(f"{h}-r1", f"{h}-r2", "50Mbps", "5ms", 'queue = { discipline = "droptail", packets = 100 }')
    out += link("a-r1", "b-r1", "50Mbps", cross)
    for h in "ab":
        for i in range(k):
            out += ["", "[[producers]]", f'node = "{h}-p{i}"', f'prefix = "/{h}/{i}"', "payload = 1000"]
    for h, other in (("a", "b"), ("b", "a")):
        for i in range(k):
            source = other if i == k - 1 else h
            cc = 'cc = { algorithm = "aimd" }' if i % 2 else 'cc = { algorithm = "fixed-window", window = 16 }'
            out += ["", "[[consumers]]", f'node = "{h}-c{i}"', f'name = "/{source}/{i}/x"',
                    "segments = 100000000", cc]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    print(scenario(int(sys.argv[1]), sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else "10ms"), end="")
