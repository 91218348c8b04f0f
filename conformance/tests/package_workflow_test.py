#!/usr/bin/env python3
"""The package preset's tool-only build ships the files CI tests, byte for byte.

    package_workflow_test.py CMAKE CPACK SOURCE_DIR RELEASE_BUILD_DIR WORK_DIR

PORTING.md tells a port's maintainer to make the .deb with `cmake --workflow
--preset package`: the library and retry-policy alone, without the suites
(ACEMQ_RETRY_BUILD_TESTING=OFF), so without GoogleTest or RapidCheck. CI's
`package` step instead packs the release build the harness has just tested
(`cpack --preset release`), which saves CI a second -O3 build of the tool.
That holds only while both builds ship the same bytes, so this builds the
package preset in WORK_DIR (about 150 s of CPU: the nightly's), packs both,
and compares every file of the two packages: a flag, a definition or a
source that differs between a tool-only and a full build fails here.
"""

import hashlib
import pathlib
import shutil
import subprocess
import sys

from assertions import expect, fail, finish


def run(command, what):
    """Runs a command; its output is shown only when it fails."""
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        print(done.stdout[-4000:])
        fail(f"{what}: {' '.join(map(str, command))} exited {done.returncode}")
    return done.returncode == 0


def pack(cpack, build_dir, out_dir):
    """The .deb of a configured and built tree, made in out_dir (the build
    tree is left as it was); its path, or None."""
    out_dir.mkdir(parents=True)
    if not run([cpack, "-G", "DEB", "--config", build_dir / "CPackConfig.cmake", "-B", out_dir],
               f"cpack of {build_dir}"):
        return None
    debs = sorted(out_dir.glob("acemq-retry_*.deb"))
    return debs[0] if expect(len(debs) == 1, f"{out_dir}: {len(debs)} .deb files, expected 1") else None


def contents(deb, into):
    """Every file the package installs: its path, and the SHA-256 of its bytes."""
    subprocess.run(["dpkg-deb", "-x", deb, into], check=True)
    return {str(f.relative_to(into)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(into.rglob("*")) if f.is_file()}


def main():
    cmake, cpack = sys.argv[1:3]
    source, release, work = (pathlib.Path(a) for a in sys.argv[3:6])
    shutil.rmtree(work, ignore_errors=True)
    tool_only = work / "package-build"
    # The package preset as PORTING.md runs it, in a binary directory of its own.
    if (run([cmake, "-S", source, "--preset", "package", "-B", tool_only], "configure")
            and run([cmake, "--build", tool_only], "build")):
        ours, theirs = (pack(cpack, tool_only, work / "from-package"),
                         pack(cpack, release, work / "from-release"))
        if ours and theirs:
            a, b = contents(ours, work / "a"), contents(theirs, work / "b")
            expect(len(a) > 0, f"{ours}: no files")
            for path in sorted(a.keys() | b.keys()):
                expect(path in a, f"/{path}: in the release build's package only")
                expect(path in b, f"/{path}: in the package preset's package only")
                expect(a.get(path, b.get(path)) == b.get(path, a.get(path)),
                       f"/{path}: the two builds ship different bytes")
            print(f"{len(a)} files compared")
    code = finish("the package preset ships the release build's files, byte for byte")
    if code == 0:
        shutil.rmtree(work, ignore_errors=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
