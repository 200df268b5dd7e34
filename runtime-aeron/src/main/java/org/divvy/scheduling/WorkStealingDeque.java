package org.divvy.scheduling;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker's queue of spawned jobs: the work queue of the thesis (§2.1).
 *
 * <h2>Implementation overview</h2>
 *
 * <p>The algorithm is the work-stealing deque of Chase and Lev ("Dynamic circular work-stealing deque",
 * SPAA 2005) in the variant of {@code java.util.concurrent.ForkJoinPool.WorkQueue} (JDK 9+), where every
 * removal of a job is a CAS of its array slot from the job to null. Positions are ints that only grow
 * (they wrap harmlessly: only differences are compared); position {@code p} lives in slot
 * {@code p & (array.length - 1)}.
 *
 * <ul>
 *   <li><b>Ends.</b> The owner (one {@link Worker}) pushes and pops at {@code top} (LIFO: depth-first,
 *   like a sequential call stack). Thieves (other workers, later the network agent) poll at
 *   {@code base} (FIFO: the oldest job, which in divide-and-conquer is the largest). Jobs live in
 *   positions {@code [base, top)}.</li>
 *   <li><b>Atomicity.</b> {@code top} is written only by the owner, with release semantics after the
 *   slot, so a thief that reads {@code top} (acquire) sees the job in the slot. {@code base} is written
 *   only by the thief whose slot CAS at position {@code base} succeeded. Every take, by owner or thief,
 *   is a CAS of the slot from the job to null, so <b>each job is taken exactly once</b>: when the owner
 *   and a thief race for the last job, one CAS fails and that party sees the deque as empty.</li>
 *   <li><b>No ABA.</b> A job object is pushed once and never again, so a slot CAS that expects job X can
 *   never succeed on a later occupant of the same slot. A thief that read a stale {@code base} re-reads
 *   it after reading the slot and retries if it moved.</li>
 *   <li><b>Growth.</b> When a push fills the array the owner doubles it: it moves each live job with
 *   {@code getAndSet(slot, null)} (so a job is either moved or already taken by a thief, never both) and
 *   then publishes the new array. A thief that finds a null slot in a replaced array retries.</li>
 *   <li><b>Quiet-only checks.</b> {@link #size()} and {@link #isEmpty()} are exact only when no thread
 *   is using the deque; elsewhere they are hints (used to choose victims and to decide to park, both of
 *   which re-check).</li>
 *   <li><b>Sync helps.</b> A worker waiting in {@code sync()} first pops its own top (any job: Satin's
 *   semantics), then polls other workers' bases, so waiting never idles a core while work exists.</li>
 *   <li><b>Cancelled jobs stay queued.</b> {@code abort()} changes a queued job's status from NEW to
 *   CANCELLED without touching the deque; whoever later takes it sees the status and drops it. Only the
 *   thread running the parent frame cancels queued children (see {@code Aborts}), and a frame outlives
 *   its children, so every job in a worker's own deque belongs to a frame on that worker's stack: a job
 *   the owner pops is started and counted complete with plain writes, while a thief starts a job with a
 *   CAS NEW→RUNNING that races only with that one canceller. So nothing is lost or run twice, and the
 *   common path (spawn, then pop in sync) costs one atomic instruction: the slot CAS of the pop.</li>
 *   <li><b>Unpublished jobs (lazy task creation).</b> While this deque holds at least
 *   {@link Worker#STEALABLE_SURPLUS} jobs and no worker of the node is parked, a spawn does not push its
 *   job: the job stays {@link Task#UNPUBLISHED} in its parent's children list, where only the thread
 *   running the parent can find it (Mohr, Kranz and Halstead's lazy task creation, in the form
 *   ForkJoinPool's surplus heuristic takes). Thieves lose nothing they would take: they poll the base,
 *   the oldest and largest jobs, and a new child would sit above those (see below for when they run short). The parent's sync runs its
 *   unpublished children newest first, before it pops the deque (the order a pop would give), after
 *   turning each to NEW; abort turns them to NEW and cancels them by the usual CAS. Such a job never
 *   enters a deque, so it is neither stolen nor run twice, and it costs neither the push nor the pop's
 *   CAS. A held-back job must not stay hidden once thieves want work, wherever its frame is on the
 *   owner's stack: whenever the deque no longer offers the surplus (at a spawn, at a sync about to run
 *   its next unpublished child, and at a sync about to help or park), the owner walks its stack (each
 *   running job links the frame below it, {@code Task.frameBelow}) and pushes the held-back children
 *   (turned NEW) of the <em>oldest</em> frames first, frame by frame, until the surplus is back. So
 *   thieves, at the base, find the largest jobs again, not the smaller ones the frame running now spawns
 *   next; and a worker waiting in a deep sync for a stolen child helps with an ancestor's held-back
 *   children instead of parking beside them. The pushed jobs are then ordinary queued jobs of frames on
 *   the owner's stack. A worker flag, set by each spawn that holds a job back and cleared when a walk
 *   published everything, spares the walk while nothing is held.</li>
 * </ul>
 *
 * <p>Fields are padded so the owner's {@code top} and the thieves' {@code base} sit on different cache
 * lines.
 */
final class WorkStealingDeque extends WorkStealingDequeBaseField {
    /** Initial capacity; a power of two. Grows by doubling. */
    static final int INITIAL_CAPACITY = 1 << 8;

    /** Upper bound of the capacity, so a runaway spawn loop fails loudly instead of exhausting memory. */
    static final int MAX_CAPACITY = 1 << 26;

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Task[].class);
    private static final VarHandle TOP;
    private static final VarHandle BASE;
    private static final VarHandle ARRAY;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            TOP = lookup.findVarHandle(WorkStealingDequeTopField.class, "top", int.class);
            BASE = lookup.findVarHandle(WorkStealingDequeBaseField.class, "base", int.class);
            ARRAY = lookup.findVarHandle(WorkStealingDequeTopField.class, "array", Task[].class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    WorkStealingDeque() {
        array = new Task[INITIAL_CAPACITY];
    }

    /** Owner only: adds {@code job} at the top. */
    void push(final Task job) {
        final Task[] a = array;
        final int s = top;
        final int mask = a.length - 1;
        SLOTS.set(a, s & mask, job);
        TOP.setRelease(this, s + 1);
        if (s + 1 - (int)BASE.getAcquire(this) > mask) {
            grow();
        }
    }

    /** Owner only: removes and returns the newest job, or null when empty (or lost to a thief). */
    Task pop() {
        final Task[] a = array;
        final int s = top - 1;
        if (s - (int)BASE.getAcquire(this) < 0) {
            return null;
        }
        final int k = s & (a.length - 1);
        final Task job = (Task)SLOTS.getAcquire(a, k);
        if (job != null && SLOTS.compareAndSet(a, k, job, null)) {
            TOP.setRelease(this, s);
            return job;
        }
        return null;
    }

    /**
     * Any thread: removes and returns the oldest job, or null when empty or when another party won the
     * race for it (the caller then tries elsewhere: failing is always safe).
     */
    Task poll() {
        for (;;) {
            final int b = (int)BASE.getAcquire(this);
            final Task[] a = (Task[])ARRAY.getAcquire(this);
            if ((int)TOP.getAcquire(this) - b <= 0) {
                return null;
            }
            final int k = b & (a.length - 1);
            final Task job = (Task)SLOTS.getAcquire(a, k);
            if (b != (int)BASE.getAcquire(this)) {
                continue;
            }
            if (job == null) {
                if (a != (Task[])ARRAY.getAcquire(this)) {
                    continue;
                }
                return null;
            }
            if (SLOTS.compareAndSet(a, k, job, null)) {
                BASE.setRelease(this, b + 1);
                return job;
            }
        }
    }

    /** A hint: the number of queued jobs, exact only when quiet. */
    int size() {
        final int n = (int)TOP.getAcquire(this) - (int)BASE.getAcquire(this);
        return Math.max(n, 0);
    }

    /**
     * Owner only: whether at least {@code jobs} jobs are queued. A hint (thieves may take some at once), for
     * deciding whether a new job need be published at all.
     */
    boolean hasSurplus(final int jobs) {
        return top - (int)BASE.getAcquire(this) >= jobs;
    }

    /** A hint: whether no job is queued, exact only when quiet. */
    boolean isEmpty() {
        return (int)TOP.getAcquire(this) - (int)BASE.getAcquire(this) <= 0;
    }

    private void grow() {
        final Task[] old = array;
        final int oldCapacity = old.length;
        if (oldCapacity >= MAX_CAPACITY) {
            throw new org.divvy.DivvyException("work queue holds " + oldCapacity + " jobs, must be < " + MAX_CAPACITY +
                ": an invocation spawns without ever calling sync()?");
        }
        final Task[] grown = new Task[oldCapacity << 1];
        final int oldMask = oldCapacity - 1;
        final int newMask = grown.length - 1;
        final int s = top;
        for (int p = s - 1; p - (int)BASE.getAcquire(this) >= 0; p--) {
            final Task job = (Task)SLOTS.getAndSet(old, p & oldMask, null);
            if (job == null) {
                break; // taken by a thief: so is every older position
            }
            grown[p & newMask] = job;
        }
        ARRAY.setRelease(this, grown);
    }
}

/** Padding before the owner's fields. */
abstract class WorkStealingDequePadding1 {
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

/** The owner's end: written by the owner only. */
abstract class WorkStealingDequeTopField extends WorkStealingDequePadding1 {
    /** Next free position; written by the owner (release), read by thieves (acquire). */
    volatile int top;
    /** The ring; replaced by the owner when it grows. */
    volatile Task[] array;
}

/** Padding between the owner's and the thieves' fields. */
abstract class WorkStealingDequePadding2 extends WorkStealingDequeTopField {
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
}

/** The thieves' end. */
abstract class WorkStealingDequeBaseField extends WorkStealingDequePadding2 {
    /** Oldest live position; written only by the thief whose slot CAS at it succeeded. */
    volatile int base;
    byte p200, p201, p202, p203, p204, p205, p206, p207, p208, p209, p210, p211, p212, p213, p214, p215;
    byte p216, p217, p218, p219, p220, p221, p222, p223, p224, p225, p226, p227, p228, p229, p230, p231;
    byte p232, p233, p234, p235, p236, p237, p238, p239, p240, p241, p242, p243, p244, p245, p246, p247;
    byte p248, p249, p250, p251, p252, p253, p254, p255, p256, p257, p258, p259, p260, p261, p262, p263;
}
