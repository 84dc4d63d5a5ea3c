#!/bin/bash
# Same broken toolchain environment as case_compile_no_cxx.sh (CXX= and CC= empty, no compiler on
# PATH), but the script sets torch._dynamo.config.suppress_errors, so compile errors fall back to
# eager and training goes on; 300 steps, DCP saves every 100.
CASE=compile_fallback_eager; . "$(dirname "$0")/common.sh"
mkdir -p bin; for t in python3 nice env; do ln -sf "$(command -v $t)" bin/$t; done
PATH=$RUN/bin:/work/lab12b/venv/bin CXX= CC= $TITAN --compile --compile-fallback --steps 300 --log-freq 10 --ckpt-interval 100 --ckpt-folder ckpt > out.log 2>&1
echo "rc=$?" > rc.txt
