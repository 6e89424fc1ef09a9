"""kgen drafter suite: a randomized leaky relu put in evaluation mode by the module itself."""
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = nn.RReLU(lower=0.05, upper=0.25)
        self.eval()

    def forward(self, x):
        return self.act(x) * 1.5
