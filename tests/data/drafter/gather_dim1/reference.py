"""kgen drafter suite: torch.gather along the last dimension of a matrix."""
import torch


class Model(torch.nn.Module):
    def forward(self, scores, idx):
        return torch.gather(scores, 1, idx)
