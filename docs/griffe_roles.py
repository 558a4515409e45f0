"""A griffe extension for the API reference.

havhex's docstrings are written for Python's help() and doctest, with
reStructuredText's roles (:class:`Board`) and doctest examples (>>> lines);
the reference shows them as Markdown, the roles as code and the examples as
Python console blocks.  A member that a stub declares without a docstring
(the Havannah board's facade over its compiled core) takes the docstring of
the member it overrides, as help() does.
"""
import re

import griffe

ROLE = re.compile(r":(?:class|meth|func|data|mod|attr|exc|obj|const):`~?([^`]+)`")


def _markdown(text):
    text = ROLE.sub(r"`\1`", text)
    lines = text.split("\n")
    out = []
    number = 0
    while number < len(lines):
        line = lines[number]
        if line.lstrip().startswith(">>>"):
            indent = line[:len(line) - len(line.lstrip())]
            block = []
            while number < len(lines) and lines[number].strip():
                block.append(lines[number][len(indent):] if lines[number].startswith(indent)
                             else lines[number].lstrip())
                number += 1
            out += [indent + "```pycon"] + [indent + row for row in block] + [indent + "```"]
            continue
        if line.endswith("::") and not line.strip().startswith(".."):
            # A literal block follows: Markdown shows the indented lines as code.
            line = line[:-1] if line[:-2].strip() else ""
        out.append(line)
        number += 1
    return "\n".join(out)


def _classes(module):
    for member in module.members.values():
        if member.is_alias:
            continue
        if member.is_module:
            yield from _classes(member)
        elif member.is_class:
            yield member


def _inherit_docstrings(cls):
    for name, member in cls.members.items():
        if member.is_alias or member.docstring is not None:
            continue
        for base in cls.resolved_bases:
            found = base.all_members.get(name)
            if found is not None and found.docstring is not None:
                member.docstring = griffe.Docstring(found.docstring.value, parent=member)
                break


class SphinxRolesToMarkdown(griffe.Extension):
    """Rewrite every docstring once, as griffe reads or inspects it; then,
    the package loaded, give undocumented overrides their base's docstring."""

    def on_instance(self, *, obj, **kwargs):
        if obj.docstring is not None:
            obj.docstring.value = _markdown(obj.docstring.value)

    def on_package(self, *, pkg, **kwargs):
        for cls in _classes(pkg):
            try:
                _inherit_docstrings(cls)
            except griffe.AliasResolutionError:
                continue
