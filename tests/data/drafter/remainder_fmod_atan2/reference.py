"""kgen drafter suite: elementwise math with a tensor divisor or second argument; the divisor is negated for
fmod so that the two sign rules differ."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x, y):
        return torch.remainder(x, y), torch.fmod(x, -y), torch.atan2(x, y - 1.5), torch.hypot(x, y)
