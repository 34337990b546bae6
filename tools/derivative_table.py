"""Write docs/derivatives.md: every derivative in minigrad, generated from the nodes' docstrings.

    python tools/derivative_table.py           # (re)write the page
    python tools/derivative_table.py --check   # exit 1 if the page is out of date

tests/test_derivative_table.py runs the check.
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "derivatives.md"


def main(argv):
    sys.path.insert(0, str(ROOT))
    from minigrad.autograd.derivative_table import markdown
    text = markdown()
    if "--check" in argv:
        if not PAGE.exists() or PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE} is out of date: run python tools/derivative_table.py")
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
