#!/usr/bin/env bash
# Runs the CoDel row of the MPTCP fairness table (docs/protocols/multipath.md) with the forwarding
# log at level "trace" on p, whose queue towards r2 is the shared CoDel one: every Data it takes in,
# sends and drops (docs/protocols/forwarder.md, "Forwarding log"); for c running LIA, OLIA,
# uncoupled and Reno, seeds 1-4, without and with the 0.866 ms send jitter.
# Usage, from the repository root (with the extension built: PYTHONPATH pointing at python/):
#   scripts/codel_drops/run.sh OUT [DURATION]       (DURATION: default 60s)
#   python3 scripts/codel_drops/analyse.py OUT
set -euo pipefail
out=${1:?usage: run.sh OUT [DURATION]}
duration=${2:-60s}
mkdir -p "$out"
fast='bandwidth = "100Mbps"
queue = { discipline = "droptail", packets = 100 }'
shared='bandwidth = "10Mbps"
queue = { discipline = "codel", packets = 100 }'
scenario() { # coupling seed jitter
    local cc dcc='{ algorithm = "mptcp", max_paths = 1 }' j=""
    if [ "$1" = reno ]; then cc=$dcc; else cc="{ algorithm = \"mptcp\", coupling = \"$1\" }"; fi
    [ -n "$3" ] && j="send_jitter = \"$3\""
    printf '[simulation]\nduration = "%s"\nseed = %s\nbin = "10ms"\nrouting = "none"\n[nodes]\n' "$duration" "$2"
    for n in c d r1 a b r2 p; do printf '%s = { ptp = true }\n' "$n"; done
    for l in c:r1:fast d:r1:fast r1:a:fast r1:b:fast a:r2:fast b:r2:fast r2:p:shared; do
        IFS=: read -r x y kind <<<"$l"
        local tail=$fast
        [ "$kind" = shared ] && tail=$shared
        printf '[[links]]\nbetween = ["%s", "%s"]\ndelay = "2ms"\n%s\n' "$x" "$y" "$tail"
    done
    for r in c:r1 d:r1 r1:a r1:b a:r2 b:r2 r2:p; do
        IFS=: read -r n h <<<"$r"
        printf '[[routes]]\nnode = "%s"\nprefix = "/p"\nnexthop = "%s"\n' "$n" "$h"
    done
    printf '[[producers]]\nnode = "p"\nprefix = "/p"\n'
    printf '[[consumers]]\nnode = "c"\nname = "/p/c"\n%s\ncc = %s\n' "$j" "$cc"
    printf '[[consumers]]\nnode = "d"\nname = "/p/d"\n%s\ncc = %s\n' "$j" "$dcc"
    printf '[trace]\nforwarding = { nodes = ["p"], level = "trace", max_records = 5000000 }\n'
}
for jitter in "" "0.866ms"; do
    for coupling in lia olia uncoupled reno; do
        for seed in 1 2 3 4; do
            tag=$out/$coupling-$seed-${jitter:-none}
            scenario "$coupling" "$seed" "$jitter" >"$tag.toml"
            python3 -m ndnflow.cli run "$tag.toml" --out "$tag" --no-plot >/dev/null
            python3 - "$tag" "$coupling" "$seed" "$jitter" <<'PY'
import json, sys
tag, coupling, seed, jitter = sys.argv[1:]
c = json.load(open(f"{tag}/summary.json"))["consumers"]
gc, gd = c["c"]["goodput_bps"], c["d"]["goodput_bps"]
print(f"RATIO {coupling} seed {seed} jitter '{jitter}': {gc / gd:.4f} (c {gc}, d {gd})")
PY
        done
    done
done
