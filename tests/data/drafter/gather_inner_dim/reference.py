"""kgen drafter suite: a gather along dim 1 of a 3-D tensor (each output element picks its row of the source)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, index):
        return x.gather(1, index)
