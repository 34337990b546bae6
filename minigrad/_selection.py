"""The k largest (or smallest) of a row in the order PyTorch's CPU ``topk`` leaves them, and
a row in the order its unstable ``sort`` leaves it, ties included.

Equal values can come out of ``topk`` in any order; which one PyTorch gives is
decided by the C++ standard library (GNU's libstdc++) it calls: for k at most
1/64 of the row ``std::partial_sort`` (a heap), else ``std::nth_element``
(introselect: median-of-three partitions, insertion sort below 4 elements)
followed by ``std::sort`` of the first k - 1 (introsort, insertion sort below
17). Each step below is that library's, on (value, index) pairs compared by
value only, larger first, so equal values end up where PyTorch puts them.
With ``sorted=False`` PyTorch skips that last sort: the first k are left in
whatever order ``nth_element`` left them.
``sort`` with ``stable=False`` is ``std::sort`` of the whole row.
Smallest first is the same steps on keys that put the smallest first (``_key``).
(``multinomial`` needs this too: categories of probability 0 tie.)
"""
import math


def _key(value, largest):
    """A key whose "greater" is PyTorch's "goes first": NaN first for the largest, last for the
    smallest (as torch.sort orders NaN), otherwise by value."""
    if isinstance(value, float) and math.isnan(value):
        return (1, 0) if largest else (-1, 0)
    return (0, value) if largest else (0, -value)      # (Python numbers: -value can't overflow)


def topk_order(values, k, largest=True, sorted=True):
    """The positions of the ``k`` largest (or smallest) ``values`` (a list of Python numbers),
    in the order PyTorch's CPU topk gives them, ties and NaN included."""
    items = [(_key(value, largest), index) for index, value in enumerate(values)]
    if k == 0:
        return []
    if k * 64 <= len(items):
        _heap_select(items, 0, k, len(items))
        _sort_heap(items, 0, k)
    else:
        _introselect(items, 0, k - 1, len(items), 2 * _floor_log2(len(items)))
        if sorted:
            _sort(items, 0, k - 1)
    return [index for _, index in items[:k]]


def sort_order(values, descending=False):
    """The order ``std::sort`` leaves ``values`` (a list of Python numbers) in, as PyTorch's CPU
    ``sort`` with ``stable=False`` calls it: NaN last (first when descending), equal values
    in whatever order introsort leaves them."""
    items = [(_key(value, descending), index) for index, value in enumerate(values)]
    _sort(items, 0, len(items))
    return [index for _, index in items]


def _before(x, y):
    """The comparison: x goes before y (it is larger)."""
    return x[0] > y[0]


def _floor_log2(n):
    return n.bit_length() - 1 if n > 0 else 0


# -- quicksort's pieces --------------------------------------------------------------------
def _move_median_to_first(a, result, i, j, m):
    """Put the median of a[i], a[j], a[m] at a[result] (swapping)."""
    if _before(a[i], a[j]):
        if _before(a[j], a[m]):
            pick = j
        elif _before(a[i], a[m]):
            pick = m
        else:
            pick = i
    elif _before(a[i], a[m]):
        pick = i
    elif _before(a[j], a[m]):
        pick = m
    else:
        pick = j
    a[result], a[pick] = a[pick], a[result]


def _unguarded_partition(a, first, last, pivot):
    while True:
        while _before(a[first], a[pivot]):
            first += 1
        last -= 1
        while _before(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _partition_pivot(a, first, last):
    middle = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, middle, last - 1)
    return _unguarded_partition(a, first + 1, last, first)


def _linear_insert(a, last):
    """Move a[last] down to its place (something before it is known to be no larger)."""
    value = a[last]
    previous = last - 1
    while _before(value, a[previous]):
        a[last] = a[previous]
        last = previous
        previous -= 1
    a[last] = value


def _insertion_sort(a, first, last):
    for i in range(first + 1, last):
        if _before(a[i], a[first]):
            value = a[i]
            a[first + 1:i + 1] = a[first:i]
            a[first] = value
        else:
            _linear_insert(a, i)


# -- heaps -------------------------------------------------------------------------------------
def _push_heap(a, first, hole, top, value):
    parent = (hole - 1) // 2
    while hole > top and _before(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _adjust_heap(a, first, hole, length, value):
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if _before(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    _push_heap(a, first, hole, top, value)


def _make_heap(a, first, last):
    length = last - first
    if length < 2:
        return
    for parent in range((length - 2) // 2, -1, -1):
        _adjust_heap(a, first, parent, length, a[first + parent])


def _pop_heap(a, first, last, result):
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value)


def _heap_select(a, first, middle, last):
    _make_heap(a, first, middle)
    for i in range(middle, last):
        if _before(a[i], a[first]):
            _pop_heap(a, first, middle, i)


def _sort_heap(a, first, last):
    while last - first > 1:
        last -= 1
        _pop_heap(a, first, last, last)


# -- std::nth_element and std::sort ----------------------------------------------------------
def _introselect(a, first, nth, last, depth):
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        cut = _partition_pivot(a, first, last)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last)


def _introsort_loop(a, first, last, depth):
    while last - first > 16:
        if depth == 0:
            _heap_select(a, first, last, last)
            _sort_heap(a, first, last)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last)
        _introsort_loop(a, cut, last, depth)
        last = cut


def _sort(a, first, last):
    if last - first < 2:
        return
    _introsort_loop(a, first, last, 2 * _floor_log2(last - first))
    if last - first > 16:
        _insertion_sort(a, first, first + 16)
        for i in range(first + 16, last):
            _linear_insert(a, i)
    else:
        _insertion_sort(a, first, last)


