"""Point the course at another GitHub repository (a fork) and/or release.

    python tools/set_repo.py https://github.com/you/your-course            # new home
    python tools/set_repo.py https://github.com/you/your-course --release v0.2.0

What it changes, so that every badge and install command follows:

* minigrad/_links.py: REPOSITORY_URL (and RELEASE with --release), the one
  place they are written down;
* every other text file of the repository that names the old repository
  (pyproject.toml's [project.urls], the README's and lessons' links,
  CITATION.cff): the old "owner/name" is replaced where it follows
  github.com/, Colab's github/ or Binder's gh/, and the README's Colab and
  Binder badges get the new release;
* the header cells of every notebook (tools/notebook_header.py).

Then commit, tag the release (``git tag v0.1.0 && git push --tags``): the
Colab and Binder links open that tag.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINKS = ROOT / "minigrad" / "_links.py"
TEXT_FILES = ("*.md", "*.toml", "*.cff", "*.yml", "*.ipynb", "*.py")


def current(name: str) -> str:
    return re.search(rf'^{name} = "([^"]*)"', LINKS.read_text(), re.M).group(1)


def set_value(name: str, value: str) -> None:
    text = LINKS.read_text()
    LINKS.write_text(re.sub(rf'^{name} = "[^"]*"', f'{name} = "{value}"', text, count=1, flags=re.M))


def tracked_text_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files", *TEXT_FILES], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    return [ROOT / name for name in names]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url", help="https://github.com/<owner>/<name>")
    parser.add_argument("--release", help="git tag learners get, e.g. v0.1.0")
    args = parser.parse_args(argv)

    match = re.fullmatch(r"https://github\.com/([\w.-]+/[\w.-]+?)(?:\.git)?/?", args.url)
    if not match:
        parser.error(f"not a GitHub repository URL: {args.url}")
    new_slug = match.group(1)
    old_slug = current("REPOSITORY_URL").removeprefix("https://github.com/")
    old_release = current("RELEASE")
    release = args.release or old_release

    set_value("REPOSITORY_URL", f"https://github.com/{new_slug}")
    if args.release:
        set_value("RELEASE", args.release)
    # Only addresses of the repository itself: "github.com/<old>" followed by
    # the end of the name (not "github.com/<old>-extra").
    pattern = re.compile(rf"((?:github\.com|/github|/gh)/){re.escape(old_slug)}(?![\w.-])")
    for path in tracked_text_files():
        if path == LINKS:
            continue
        text = path.read_text(encoding="utf-8")
        changed = pattern.sub(lambda m: m.group(1) + new_slug, text)
        # Colab and Binder badges written by hand (README) name the release too.
        for before, after in [(f"{new_slug}/blob/{old_release}/", f"{new_slug}/blob/{release}/"),
                              (f"gh/{new_slug}/{old_release}?", f"gh/{new_slug}/{release}?")]:
            changed = changed.replace(before, after)
        if changed != text:
            path.write_text(changed, encoding="utf-8")
            print(f"updated {path.relative_to(ROOT)}")
    # The header cells carry the release too: rebuild them in a fresh process,
    # which reads the _links.py just written.
    return subprocess.call([sys.executable, str(ROOT / "tools" / "notebook_header.py")])


if __name__ == "__main__":
    sys.exit(main())
