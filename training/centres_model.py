"""The centre net in torch (training only; the product runs the exported ONNX through
``cv2.dnn``): a small encoder to 1/8 of the input, decoded back to 1/2 with skips, one sigmoid
heat map per kind (:data:`vision.centres_net.KINDS`)."""

from __future__ import annotations

import torch
from torch import nn

from vision.centres_input import CHANNELS
from vision.centres_net import KINDS


def _block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class CentreNet(nn.Module):
    """Input (N, CHANNELS, H, W), H and W multiples of 8; output (N, len(KINDS), H/2, W/2)."""

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        w = width
        self.e1 = _block(CHANNELS, w, 2)                     # 1/2
        self.e2 = nn.Sequential(_block(w, 2 * w, 2), _block(2 * w, 2 * w))   # 1/4
        self.e3 = nn.Sequential(_block(2 * w, 3 * w, 2), _block(3 * w, 3 * w, dilation=2))  # 1/8
        self.l3 = nn.Conv2d(3 * w, 2 * w, 1)
        self.d2 = _block(2 * w, w)                           # 1/4
        self.l2 = nn.Conv2d(w, w, 1)
        self.l1 = nn.Conv2d(w, w, 1)
        self.d1 = nn.Sequential(                             # 1/2, depthwise then pointwise
            nn.Conv2d(w, w, 3, padding=1, groups=w, bias=False), nn.BatchNorm2d(w),
            nn.ReLU(inplace=True), nn.Conv2d(w, w, 1), nn.ReLU(inplace=True))
        self.head = nn.Conv2d(w, len(KINDS), 1)
        self.head.bias.data.fill_(-4.0)  # a rare positive: start near 0.02
        self.up = nn.Upsample(scale_factor=2, mode="nearest")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f1 = self.e1(x)
        f2 = self.e2(f1)
        f3 = self.e3(f2)
        u2 = self.d2(self.up(self.l3(f3)) + f2)
        u1 = self.d1(self.up(self.l2(u2)) + self.l1(f1))
        return torch.sigmoid(self.head(u1))
