"""The checks' helpers of tests/stat-perf/suite.sh (its python blocks)."""


def ok(name, cond, why=""):
    """one PASS or FAIL line"""
    print(("PASS stat-perf " + name) if cond else ("FAIL stat-perf %s: %s" % (name, why)))


def text(d, name):
    """the lines of file d/name, without their newlines"""
    with open("%s/%s" % (d, name)) as f:
        return [line.rstrip("\n") for line in f]
