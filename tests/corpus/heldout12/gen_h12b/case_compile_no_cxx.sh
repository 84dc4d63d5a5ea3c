#!/bin/bash
# FSDP2 run with --compile (torch.compile, inductor) on a node image without a C++ compiler:
# PATH is reduced so that no g++/c++/gcc is found (the venv's python is called by full path).
CASE=compile_no_cxx; . "$(dirname "$0")/common.sh"
mkdir -p bin; for t in python3 nice env; do ln -sf "$(command -v $t)" bin/$t; done
PATH=$RUN/bin:/work/lab12b/venv/bin CXX= CC= $TITAN --compile --steps 100 --log-freq 10 > out.log 2>&1
echo "rc=$?" > rc.txt
