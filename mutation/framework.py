"""framework: what the core's mutation analysis (mutation/) and the ports'
(mutation/ports/) share, written once so that an operator table's row, a
mutant's key and an equivalents file mean the same thing in both.

A key is `file | function | operator change | occurrence`: it names a
mutant by what it does and where, not by its number in one run, so that an
argument in an equivalents file survives reformatting and edits to other
functions. The occurrence tells apart the mutants of one function that make
the same change (two `<` turned `<=`), in the order they appear.
"""
import dataclasses
import json


@dataclasses.dataclass(frozen=True)
class Operator:
    """One row of an operator table: the name a key carries, the slip it
    stands for (why an author could make it), and the function that finds
    its sites."""
    name: str
    reason: str
    apply: object


class Keys:
    """Gives each mutant of a run its key, counting occurrences as it goes:
    call key() in the order the mutants appear in their function."""

    def __init__(self):
        self._seen = {}

    def key(self, file, function, operator, change):
        """(the key, its occurrence)."""
        base = f"{file} | {function} | {operator} {change}"
        occurrence = self._seen.get(base, 0)
        self._seen[base] = occurrence + 1
        return f"{base} | {occurrence}", occurrence


def read_equivalents(path, empty):
    """An equivalents file's entries, or `empty` where there is no file."""
    return json.loads(path.read_text()) if path.exists() else empty


def write_equivalents(path, entries):
    """Writes an equivalents file: each list of entries sorted by key, so
    that an argument added or changed is one hunk of a diff."""
    def ordered(value):
        if isinstance(value, dict):
            return {name: ordered(inner) for name, inner in value.items()}
        return sorted(value, key=lambda entry: entry["key"])
    path.write_text(json.dumps(ordered(entries), indent=1, ensure_ascii=False) + "\n")
