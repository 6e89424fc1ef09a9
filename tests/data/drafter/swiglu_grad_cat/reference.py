"""kgen drafter suite: the SwiGLU gradient as the NPU SwiGluGrad operator's reference writes it: both inputs cast
to float32, the halves of x read as windows, the two gradients concatenated along the last dimension (each
written into its half of the output rows), returned in float32."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, y_grad: torch.Tensor, x: torch.Tensor, dim: int = -1) -> torch.Tensor:
        x = x.to(torch.float32)
        y_grad = y_grad.to(torch.float32)
        x1, x2 = x.chunk(2, dim=dim)
        sig = torch.sigmoid(x1)
        silu = x1 * sig
        silu_grad = sig * (1 + x1 * (1 - sig))
        return torch.cat([y_grad * x2 * silu_grad, y_grad * silu], dim=dim)
