"""torch.layout: how a tensor's elements are stored. minigrad has one layout, ``torch.strided``
(a block of memory walked with a step per dimension); PyTorch also has sparse layouts."""


class layout:       # noqa: N801 (PyTorch's name)
    """The kind of ``torch.strided``: ``x.layout`` of every minigrad tensor."""

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"torch.{self._name}"

    def __reduce__(self):
        return self._name         # (pickled as the module's object of that name)


strided = layout("strided")
