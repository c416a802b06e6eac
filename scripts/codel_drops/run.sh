#!/usr/bin/env bash
# Runs the CoDel row of the MPTCP fairness table (docs/protocols/multipath.md) with a log of every
# Data the shared queue takes in, sends and drops, for c running LIA, OLIA, uncoupled and Reno, seeds
# 1-4, without and with the 0.866 ms send jitter.
# Usage, from the repository root:
#   git apply scripts/codel_drops/droplog.patch
#   scripts/codel_drops/run.sh OUT
#   python3 scripts/codel_drops/analyse.py OUT
#   git apply -R scripts/codel_drops/droplog.patch
set -euo pipefail
out=${1:?usage: run.sh OUT}
mkdir -p "$out"
bin=$(cargo test -q -p ndnflow-sim --release --test codel_droplog --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("executable") and m.get("target", {}).get("name") == "codel_droplog": print(m["executable"])')
shared='bandwidth = "10Mbps"
queue = { discipline = "codel", packets = 100 }'
for jitter in "" "0.866ms"; do
    for coupling in lia olia uncoupled reno; do
        for seed in 1 2 3 4; do
            tag=$out/$coupling-$seed-${jitter:-none}
            COUPLING=$coupling SEED=$seed JITTER=$jitter SHARED=$shared NDNFLOW_DROPLOG=$tag.log \
                PATHS=$tag.paths.csv "$bin" --ignored --nocapture | grep RATIO
        done
    done
done
