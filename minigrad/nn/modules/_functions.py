"""autograd Functions that modules use internally (PyTorch: torch/nn/modules/_functions.py)."""
from ...autograd.function import Function


class BackwardHookFunction(Function):
    """The identity, recorded as one node (``BackwardHookFunctionBackward``) over all the
    tensors passed: a module with full backward hooks puts one in front of its inputs and one
    after its outputs, and hooks that node (minigrad/utils/hooks.py BackwardHook)."""

    @staticmethod
    def forward(ctx, *args):
        # a tensor that needs no gradient passes through without a node, as it came
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *args):
        """results = args, each tensor unchanged   ->   grad_args = grad_results (each gradient passed on as it came)"""
        return args
