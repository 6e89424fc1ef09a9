"""kgen drafter suite: the minimum over the channels (values of torch.min), then tanh and a scale: an inner-dimension
reduction with an elementwise epilogue on the reduced values."""
import torch


class Model(torch.nn.Module):
    def forward(self, x):
        values, _ = torch.min(x, dim=1, keepdim=True)
        return torch.tanh(values).clamp(min=-0.5) * 3.0
