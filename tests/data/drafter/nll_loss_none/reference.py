"""kgen drafter suite: per-sample negative log-likelihood (nn.NLLLoss, reduction='none') of log-probabilities
[N, C]; samples of class 0 are ignored (loss 0)."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.nll = nn.NLLLoss(reduction="none", ignore_index=0)

    def forward(self, log_probs, target):
        return self.nll(log_probs, target)
