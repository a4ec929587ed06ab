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


def load_onnx_weights(model: CentreNet, path: str) -> None:
    """Start ``model`` from exported weights (``--init``): each convolution takes its ONNX
    kernel; where the export folded a batch norm into it, the norm becomes the identity with
    the folded bias as its shift, and its statistics stay frozen (:func:`freeze_norms`), so
    the model computes what the export did.

    Raises:
        SystemExit: a file that is not this model's export (a one-line error naming it).
    """
    import onnx
    from onnx import numpy_helper

    try:
        graph = onnx.load(path).graph
    except (OSError, ValueError) as e:
        raise SystemExit(f"{path}: cannot read ({e})") from None
    init = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    modules = dict(model.named_modules())
    done = 0
    for node in graph.node:
        if node.op_type != "Conv":
            continue
        name = node.output[0].strip("/").rsplit("/", 1)[0].split("/")[-1]  # e.g. "e2.0.0"
        conv = modules.get(name)
        if not isinstance(conv, nn.Conv2d) or node.input[1] not in init:
            raise SystemExit(f"{path}: convolution {name!r} is not this model's")
        w = torch.from_numpy(init[node.input[1]].copy())
        b = torch.from_numpy(init[node.input[2]].copy()) if len(node.input) > 2 else None
        if w.shape != conv.weight.shape:
            raise SystemExit(f"{path}: {name} is {tuple(w.shape)}, the model's "
                             f"{tuple(conv.weight.shape)} (another --width?)")
        with torch.no_grad():
            conv.weight.copy_(w)
            if conv.bias is not None:
                conv.bias.copy_(b)
            else:  # a folded norm: the next module of the same sequence
                head, _, idx = name.rpartition(".")
                bn = modules[f"{head}.{int(idx) + 1}"]
                if not isinstance(bn, nn.BatchNorm2d) or b is None:
                    raise SystemExit(f"{path}: {name} has no norm to take its bias")
                bn.weight.fill_(1.0)
                bn.bias.copy_(b)
                bn.running_mean.zero_()
                bn.running_var.fill_(1.0 - bn.eps)
        done += 1
    if done != sum(isinstance(m, nn.Conv2d) for m in modules.values()):
        raise SystemExit(f"{path}: {done} convolutions, not the model's")


def freeze_norms(model: nn.Module) -> None:
    """Batch norms keep their statistics (call after each ``model.train()``)."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()
