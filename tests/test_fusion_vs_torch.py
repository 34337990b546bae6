"""nn.utils.fuse_conv_bn_eval / fuse_linear_bn_eval and their weight forms against PyTorch:
the folded weights, the fused layer's output, and the refusals in training mode."""
import numpy as np
import pytest

import minigrad

from conftest import import_torch


def _trained_bn(lib, bn, shape):
    bn.train()
    for _ in range(3):
        bn(lib.randn(*shape))
    return bn.eval()


@pytest.mark.parametrize("kind", ["conv", "conv_transpose", "conv_no_bias", "linear", "linear_bn1"])
def test_fused_layers_as_torch(kind):
    torch = import_torch()
    seen = []
    for lib in (minigrad, torch):
        lib.manual_seed(0)
        nn = lib.nn
        if kind.startswith("conv"):
            layer = (nn.ConvTranspose2d(3, 4, 3) if kind == "conv_transpose"
                     else nn.Conv2d(3, 4, 3, bias=kind != "conv_no_bias")).eval()
            bn = _trained_bn(lib, nn.BatchNorm2d(4), (2, 4, 5, 5))
            fused = nn.utils.fuse_conv_bn_eval(layer, bn, transpose=kind == "conv_transpose")
            x = lib.randn(2, 3, 6, 6)
        else:
            layer = nn.Linear(3, 4).eval()
            bn = _trained_bn(lib, nn.BatchNorm1d(4 if kind == "linear" else 1),
                             (5, 4) if kind == "linear" else (5, 1))
            fused = nn.utils.fuse_linear_bn_eval(layer, bn)
            x = lib.randn(2, 3)
        seen.append((fused.weight.detach().numpy(), fused.bias.detach().numpy(),
                     fused(x).detach().numpy(), type(fused.weight).__name__,
                     fused.weight.requires_grad, layer.weight is fused.weight))
    np.testing.assert_array_equal(seen[0][0], seen[1][0])
    np.testing.assert_array_equal(seen[0][1], seen[1][1])
    np.testing.assert_allclose(seen[0][2], seen[1][2], rtol=1e-5, atol=1e-6)
    assert seen[0][3:] == seen[1][3:]


def test_fusion_in_training_mode_is_refused_as_torch():
    torch = import_torch()
    messages = []
    for lib in (minigrad, torch):
        with pytest.raises(AssertionError) as caught:
            lib.nn.utils.fuse_conv_bn_eval(lib.nn.Conv2d(1, 2, 1), lib.nn.BatchNorm2d(2))
        with pytest.raises(AssertionError) as mismatch:
            lib.nn.utils.fuse_linear_bn_eval(lib.nn.Linear(2, 3).eval(), lib.nn.BatchNorm1d(2).eval())
        messages.append((str(caught.value), str(mismatch.value)))
    assert messages[0] == messages[1]
