"""kgen drafter suite: embedding lookup with the table given to forward."""
import torch
import torch.nn.functional as F


class Model(torch.nn.Module):
    def forward(self, token_ids, table):
        return F.embedding(token_ids, table)
