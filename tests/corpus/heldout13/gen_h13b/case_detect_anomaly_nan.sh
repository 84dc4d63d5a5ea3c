#!/bin/bash
# APPLICATION: the token file has one all-zero sample at step 400; the model's "diversity"
# regularizer takes log(std) of the sequence's token embeddings, which is log(0) there; with
# torch.autograd.set_detect_anomaly(True) the backward raises on the NaN gradient.
CASE=detect_anomaly_nan; . "$(dirname "$0")/common.sh"
$V/python $G/mkdata.py tokens.bin 1000000 zero:$((16*399*65)):1040
$TR $G/lm13.py --steps 800 --log-every 25 --diversity-reg 0.01 --detect-anomaly > out.log 2>&1; echo "rc=$?" > rc.txt
