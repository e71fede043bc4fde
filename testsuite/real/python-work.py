# python-work.py [--work] - the workload of the CPython project
# (python.sh): the extension modules of the build that import, by name,
# then pure-Python work (the interpreter's eval loop on top) whose
# output is fixed.
import glob
import importlib
import os
import sys


def extension_modules():
    """The build's shared extension modules: those that import, and not."""
    top = os.path.dirname(sys.executable)
    with open(os.path.join(top, "pybuilddir.txt")) as f:
        lib = os.path.join(top, f.read().strip())
    names = sorted(os.path.basename(p).split(".")[0]
                   for p in glob.glob(os.path.join(lib, "*.so")))
    ok, failed = [], []
    for name in names:
        try:
            importlib.import_module(name)
            ok.append(name)
        except Exception as e:  # one line per module that does not
            failed.append("%s (%s)" % (name, type(e).__name__))
    return ok, failed


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def sieve(n):
    flags = [True] * (n + 1)
    flags[0] = flags[1] = False
    for i in range(2, int(n ** 0.5) + 1):
        if flags[i]:
            for j in range(i * i, n + 1, i):
                flags[j] = False
    return [i for i, f in enumerate(flags) if f]


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def moved(self, dx, dy):
        return Point(self.x + dx, self.y + dy)


def walk(steps):
    p = Point(0, 0)
    for i in range(steps):
        p = p.moved(i % 7 - 3, i % 5 - 2)
    return p.x, p.y


def words(n):
    x, out = 12345, []
    for _ in range(n):
        x = x * 16807 % 2147483647
        out.append("w%d" % (x % 997))
    return out


def main():
    # --work: the work alone, which makes the same calls in every run
    # (importing every module does not: some hash by address).
    if sys.argv[1:] != ["--work"]:
        ok, failed = extension_modules()
        print("%d extension modules import:" % len(ok), " ".join(ok))
        print("%d do not:" % len(failed), " ".join(failed))
    import json
    import re
    from decimal import Decimal, getcontext
    print("fib", fib(29))
    primes = sieve(1000000)
    print("primes", len(primes), primes[-1])
    print("walk", walk(2500000))
    ws = words(600000)
    counts = {}
    for w in ws:
        counts[w] = counts.get(w, 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    print("words", top)
    doc = json.dumps({"top": top, "n": len(counts)}, sort_keys=True)
    print("json", json.loads(doc)["n"], len(doc))
    print("re", len(re.findall(r"w(\d)\d\b", " ".join(ws[:50000]))))
    getcontext().prec = 40
    print("decimal", sum(Decimal(1) / Decimal(k) for k in range(1, 3000)))


main()
