"""kgen drafter suite: nn.Linear, a 1-D max pool over the features (a channel of one), then ReLU."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.pool = nn.MaxPool1d(kernel_size=4, stride=2)

    def forward(self, x):
        return torch.relu(self.pool(self.fc(x).unsqueeze(1)).squeeze(1))
