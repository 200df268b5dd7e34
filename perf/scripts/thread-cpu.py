#!/usr/bin/env python3
"""CPU time per thread of every node process of one `divvy run`, over its timed run only.

usage: perf/scripts/thread-cpu.py [--sched] [--c2 DIR] [--jar JAR] -- RUN_ARGS...   (JAR: examples/target/divvy-examples.jar, or a perf jar)
  e.g. perf/scripts/thread-cpu.py -- run --nodes 2 --workers 1 --warmup-runs 1 --port 51000 uts -t 1 -a 3 -d 13 -b 4 -r 19

Starts node 0 as bin/divvy does (G1 or serial as bin/divvy chooses, -Xms16m), reads its output, and snapshots
/proc/PID/task/*/schedstat and status of node 0 and every java process below it when the last warm-up run's line is
printed and again when the timed run's "wall time:" line is. Prints, per process, the threads that used CPU
between the two (ms), grouped by thread name with the numbers taken out (GC Thread#0.. -> GC Thread#); with
--sched, per group also the time its threads were runnable but waited for a core (the run queue), and their
voluntary (parks, sleeps) and involuntary (preempted) context switches. Threads that ended in between are
missed: none of a node's do during a run. With TASKSET=LIST in the environment, node 0 (and so every child,
which inherits it) is started under `taskset -c LIST`. With --c2 DIR, every node also writes HotSpot's compilation
log to DIR/pidPID.log (-XX:+LogCompilation), and the C2 compilations that ran between the snapshots are listed per
node: how many, their summed wall time in it, which were recompilations of a deoptimised method, the longest six.
"""
import os, re, subprocess, sys, time


def descendants(pid):
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for t in os.listdir(f"/proc/{p}/task"):
                try:
                    with open(f"/proc/{p}/task/{t}/children") as f:
                        todo += [int(c) for c in f.read().split()]
                except OSError:
                    pass
        except OSError:
            pass
    return out

def snapshot(root):
    snap = {}
    for p in descendants(root):
        try:
            with open(f"/proc/{p}/comm") as f:
                if f.read().strip() != "java":
                    continue
            if p not in STARTS:
                with open(f"/proc/{p}/stat") as f:
                    STARTS[p] = int(f.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
            for t in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{t}/comm") as f:
                    name = f.read().strip()
                with open(f"/proc/{p}/task/{t}/schedstat") as f:
                    run_ns, wait_ns, _ = (int(x) for x in f.read().split())
                with open(f"/proc/{p}/task/{t}/status") as f:
                    st = f.read()
                vol = int(re.search(r"^voluntary_ctxt_switches:\s+(\d+)", st, re.M).group(1))
                invol = int(re.search(r"^nonvoluntary_ctxt_switches:\s+(\d+)", st, re.M).group(1))
                snap[(p, int(t))] = (name, (run_ns, wait_ns, vol, invol))
        except OSError:
            pass
    return snap

def since_boot():
    with open("/proc/uptime") as f:
        return float(f.read().split()[0])

def c2_report(pid, label, b0, b1, c2dir):
    """The C2 tasks that ran between the snapshots, from the JVM's own compilation log (its stamps: s since start)."""
    path = os.path.join(c2dir, f"pid{pid}.log")  # -XX:LogFile=DIR/%p.log writes pidPID.log
    if not os.path.exists(path):
        print(f"{label}: no {path}")
        return
    start = STARTS.get(pid)
    lo, hi = b0 - start, b1 - start  # s since the JVM started (its process start, within a clock tick)
    text = open(path, errors="replace").read()
    attr = re.compile(r"(\w+)='([^']*)'")
    tasks = []
    for m in re.finditer(r"<task (.*?)>(.*?)<task_done ([^>]*)>", text, re.S):
        a, e = dict(attr.findall(m.group(1))), dict(attr.findall(m.group(3)))
        s, end = float(a["stamp"]), float(e["stamp"])
        if a.get("level", "4") == "4" and s <= hi and end >= lo:  # C2 tasks have no level; this one ran in the window
            tasks.append((min(end, hi) - max(s, lo), a["method"].split(" ")[0] + "::" + a["method"].split(" ")[1],
                "OSR " if a.get("compile_kind") == "osr" else "", int(a.get("decompiles", "0"))))
    traps = [t for t in re.findall(r"<uncommon_trap thread='[^']*' ([^>]*)>", text)
             if lo <= float(dict(attr.findall(t)).get("stamp", "-1")) <= hi and "action='none'" not in t]
    again = sum(1 for t in tasks if t[3] > 0)
    print(f"{label} (pid {pid}), {lo:.2f}-{hi:.2f} s after its start: {len(tasks)} tasks, {sum(t[0] for t in tasks) * 1000:.0f} ms; "
          f"{again} of them recompiling a deoptimised method; deoptimising traps {len(traps)}")
    for d, m, k, dec in sorted(tasks, reverse=True)[:6]:
        print(f"    {d * 1000:6.0f} ms {k}{m}" + (f" (deoptimised {dec}x before)" if dec else ""))

STARTS = {}

def main():
    args = sys.argv[1:]
    sched = False
    if args and args[0] == "--sched":
        sched, args = True, args[1:]
    c2dir = None
    if args and args[0] == "--c2":
        c2dir, args = os.path.abspath(args[1]), args[2:]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    jar = os.path.join(root, "examples/target/divvy-examples.jar")
    if args and args[0] == "--jar":
        jar, args = args[1], args[2:]
    if args and args[0] == "--":
        args = args[1:]
    mem_kib = int(re.search(r"MemTotal:\s+(\d+)", open("/proc/meminfo").read()).group(1))
    gc = "-XX:+UseG1GC" if mem_kib // 4 > 1 << 20 else "-XX:+UseSerialGC"
    extra = os.environ.get("DIVVY_JAVA_OPTS", "").split()
    pin = ["taskset", "-c", os.environ["TASKSET"]] if os.environ.get("TASKSET") else []
    if c2dir:
        # every node logs its compilations (LogCompilation: each task's start and end, in s since its JVM started)
        os.makedirs(c2dir, exist_ok=True)
        log = ["-XX:+UnlockDiagnosticVMOptions", "-XX:+LogCompilation", f"-XX:LogFile={c2dir}/%p.log"]
        extra = extra + log
        at = args.index("run") + 1
        args = args[:at] + [f"--jvm-opt={o}" for o in log] + args[at:]
    cmd = pin + ["java", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED", gc, "-Xms16m"] + extra + ["-cp", jar, "org.divvy.examples.Launcher"] + args
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    before = after = None
    t0 = t1 = None
    warmups = None
    for line in proc.stdout:
        sys.stdout.write(line)
        m = re.match(r"divvy run: warm-up run (\d+) of (\d+)", line)
        if m and m.group(1) == m.group(2):
            before, t0, b0 = snapshot(proc.pid), time.monotonic(), since_boot()
        elif line.startswith("wall time:") and before is not None and after is None:
            after, t1, b1 = snapshot(proc.pid), time.monotonic(), since_boot()
    proc.wait()
    if before is None or after is None:
        sys.exit("no warm-up line or no wall time line: pass --warmup-runs N")
    print(f"\nCPU per thread over the timed run ({(t1 - t0) * 1000:.0f} ms between the snapshots):")
    pids = sorted({p for p, _ in after}, key=lambda p: (p != proc.pid, p))
    for p in pids:
        groups, total = {}, 0
        for (pp, t), (name, now) in after.items():
            if pp != p:
                continue
            was = before.get((pp, t), (name, (0, 0, 0, 0)))[1]
            d = [a - b for a, b in zip(now, was)]
            if d[0] <= 0 and d[2] <= 0 and d[3] <= 0:
                continue
            # a worker's name (divvy-<node>-worker-N) is cut to 15 characters by the kernel
            key = "worker" if re.match(r"divvy-[0-9a-f]+-", name) else re.sub(r"\d+", "#", name) if not name.startswith("divvy") else name
            g = groups.setdefault(key, [0, 0, 0, 0])
            for i in range(4):
                g[i] += d[i]
            total += d[0]
        label = "node 0" if p == proc.pid else f"child {p}"
        ranked = [(k, g) for k, g in sorted(groups.items(), key=lambda kv: -kv[1][0]) if g[0] >= 5_000_000 or sched and g[2] + g[3] > 0]
        if sched:
            parts = [f"{k} {g[0] // 1_000_000} (waited {g[1] // 1_000_000}, switches {g[2]} voluntary / {g[3]} preempted)" for k, g in ranked]
        else:
            parts = [f"{k} {g[0] // 1_000_000}" for k, g in ranked]
        print(f"{label} (pid {p}): {total // 1_000_000} ms: " + ", ".join(parts))
    if c2dir:
        print(f"\nC2 compilations that ran during the timed run (LogCompilation in {c2dir}; wall ms of each within it):")
        for p in pids:
            c2_report(p, "node 0" if p == proc.pid else f"child {p}", b0, b1, c2dir)
    sys.exit(proc.returncode)

main()
