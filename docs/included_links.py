"""A hook of the site (mkdocs.yml, ``hooks:``): the home page and the
changelog page are README.md and CHANGELOG.md, included whole
(``--8<-- "README.md"``), and those files' relative links and pictures are
written from the top of the repository (``docs/judges.md``,
``docs/havannah.svg``, ``CHANGELOG.md``), where a reader of the repository
follows them.  In the site the same links are read from docs/: this hook
includes such a file itself, its links rewritten to be read from docs/
(``judges.md``, ``havannah.svg``, ``changelog.md``), and leaves every other
link as it is, so that the site's link check fails on any that leads
nowhere.  (The snippets extension would include the file before any hook
sees its text.)"""
import re
from pathlib import Path

# A page that is one whole file of the top of the repository.
WHOLE_FILE = re.compile(r'\A--8<-- "([^"/]+)"\s*\Z')

# The target of a Markdown link or picture, up to an anchor or a title.
LINK = re.compile(r"(\]\()([^)\s#]+)")


def from_docs(target, pages):
    """``target``, a link written from the top of the repository, as a page
    of docs/ reads it; ``pages`` maps each file of the top that is a page of
    the site to that page."""
    if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("/"):
        return target                   # an address, or absolute: not ours to move
    if target.startswith("docs/"):
        return target[len("docs/"):]
    return pages.get(target, target)


def whole_file_pages(docs):
    """Each file of the top of the repository that a page of ``docs``
    (a Path) includes whole, with that page's path in docs/."""
    pages = {}
    for path in sorted(Path(docs).rglob("*.md")):
        included = WHOLE_FILE.match(path.read_text(encoding="utf-8"))
        if included:
            pages[included.group(1)] = path.relative_to(docs).as_posix()
    return pages


def on_page_markdown(markdown, page, config, files):
    included = WHOLE_FILE.match(markdown)
    if not included:
        return markdown
    top = Path(config.config_file_path).parent
    text = (top / included.group(1)).read_text(encoding="utf-8")
    pages = whole_file_pages(config.docs_dir)
    return LINK.sub(lambda match: match.group(1) + from_docs(match.group(2), pages), text)
