#!/bin/bash
# torchrun 2 ranks, Megatron-style with a NaN guard; the token file has a 64 KiB region of zeros (pad id) so a batch
# whose targets are all pad gives loss = 0/0 = NaN (masked mean over zero tokens).
CASE=c11; source /work/wt23b/tests/corpus/heldout23/gen_h23b/common.sh
cp $D/tok4m.bin $RUN/tok_pad.bin
# zero region at tokens [1800*64*17, +32768): reached around iteration 1800
python3 -c "
import os; f=open('$RUN/tok_pad.bin','r+b'); f.seek(1800*64*17*2); f.write(b'\0'*65536)"
$TR $G/t23.py --data $RUN/tok_pad.bin --fmt mega --steps 3000 --log-every 50 --ckpt-dir ck --ckpt-every 1000 --resume --nan-check > out.log 2>&1
echo "exit=$?"
