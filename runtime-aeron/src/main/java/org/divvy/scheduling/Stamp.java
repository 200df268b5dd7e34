package org.divvy.scheduling;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The reproducible identity of a job: the level stamp of the thesis (§2.4). The root has the empty
 * stamp; a child's stamp is its parent's stamp followed by its child index (0-based, counting every
 * spawn of the parent's invocation). Because a program spawns its children in a deterministic order, a
 * job re-spawned after a crash gets the same stamp again.
 *
 * <p>Representation: an immutable byte array of unsigned LEB128 varints, one per level, so the common
 * small indices take one byte and the stamp travels on the wire as it is ({@link #toByteArray},
 * {@link #fromByteArray}; the network half frames them). Stamps are built on demand from the
 * (parent, childIndex) chain: spawns never pay for them.
 */
public final class Stamp implements Comparable<Stamp> {
    /** The stamp of a root job. */
    public static final Stamp ROOT = new Stamp(new byte[0]);

    /** Upper bound of an encoded stamp ({@link #toByteArray}), so a decoder never allocates more than this. */
    public static final int MAX_ENCODED_LENGTH = 64 * 1024;

    /**
     * Orders stamps by their encoded bytes (unsigned, lexicographically): cheaper than {@link #compareTo}, and like it
     * an ancestor comes first and every subtree's stamps are contiguous, the subtree's root first (a varint ends at a
     * byte below 0x80, so a byte prefix that ends a varint is an ancestor).
     */
    public static final Comparator<Stamp> ENCODED_ORDER = (a, b) -> Arrays.compareUnsigned(a.bytes, b.bytes);

    private final byte[] bytes;
    private int hash;

    private Stamp(final byte[] bytes) {
        this.bytes = bytes;
    }

    /** The stamp of {@code job}: its remote stamp if it came from another node, else derived. */
    public static Stamp of(final Task job) {
        int depth = 0;
        int length = 0;
        Task j = job;
        while (j.remoteStamp() == null && j.parent != null) {
            length += varintLength(j.childIndex);
            depth++;
            j = j.parent;
        }
        final Stamp base = j.remoteStamp() != null ? j.remoteStamp() : ROOT;
        if (depth == 0) {
            return base;
        }
        final byte[] out = Arrays.copyOf(base.bytes, base.bytes.length + length);
        int end = out.length;
        for (j = job; depth > 0; depth--, j = j.parent) {
            final int n = varintLength(j.childIndex);
            end -= n;
            writeVarint(out, end, j.childIndex);
        }
        return new Stamp(out);
    }

    /** The stamp of the child with index {@code childIndex} of the job with this stamp. */
    public Stamp child(final int childIndex) {
        if (childIndex < 0) {
            throw new IllegalArgumentException("childIndex=" + childIndex + ", must be >= 0");
        }
        final byte[] out = Arrays.copyOf(bytes, bytes.length + varintLength(childIndex));
        writeVarint(out, bytes.length, childIndex);
        return new Stamp(out);
    }

    /** Whether this stamp is {@code other} or one of its ancestors. */
    public boolean isAncestorOrSelf(final Stamp other) {
        return other.bytes.length >= bytes.length && Arrays.equals(bytes, 0, bytes.length, other.bytes, 0, bytes.length);
    }

    /** The number of levels below the root: 0 for {@link #ROOT}. */
    public int depth() {
        int depth = 0;
        for (final byte b : bytes) {
            if (b >= 0) {
                depth++;
            }
        }
        return depth;
    }

    /** The child indices from the root down; a new array. */
    public int[] indices() {
        final int[] out = new int[depth()];
        int level = 0;
        int value = 0;
        int shift = 0;
        for (final byte b : bytes) {
            value |= (b & 0x7F) << shift;
            if (b >= 0) {
                out[level++] = value;
                value = 0;
                shift = 0;
            } else {
                shift += 7;
            }
        }
        return out;
    }

    /** This stamp's bytes (its varints, without a length); a copy. */
    public byte[] toByteArray() {
        return bytes.clone();
    }

    /**
     * The stamp whose bytes are {@code encoded} (as {@link #toByteArray} returns them), checking that every
     * varint is well formed; copies the array.
     *
     * @throws IllegalArgumentException if the bytes are longer than {@link #MAX_ENCODED_LENGTH}, a child
     * index is wider than 31 bits or the bytes end inside one
     */
    public static Stamp fromByteArray(final byte[] encoded) {
        if (encoded.length > MAX_ENCODED_LENGTH) {
            throw new IllegalArgumentException("stamp length=" + encoded.length + ", must be <= " + MAX_ENCODED_LENGTH);
        }
        if (encoded.length == 0) {
            return ROOT;
        }
        int bytesInVarint = 0;
        for (final byte b : encoded) {
            bytesInVarint++;
            if (bytesInVarint > 5 || (bytesInVarint == 5 && (b & 0xF8) != 0)) {
                throw new IllegalArgumentException("stamp has a child index wider than 31 bits");
            }
            if (b >= 0) {
                bytesInVarint = 0;
            }
        }
        if (bytesInVarint != 0) {
            throw new IllegalArgumentException("stamp ends inside a child index");
        }
        return new Stamp(encoded.clone());
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof Stamp s && Arrays.equals(bytes, s.bytes);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = Arrays.hashCode(bytes);
            hash = h;
        }
        return h;
    }

    /** Orders by child indices level by level, a prefix (an ancestor) first: depth-first spawn order. */
    @Override
    public int compareTo(final Stamp other) {
        final int[] a = indices();
        final int[] b = other.indices();
        return Arrays.compare(a, b);
    }

    /** {@code "0.2.1"}, or {@code "root"} for the root. */
    @Override
    public String toString() {
        if (bytes.length == 0) {
            return "root";
        }
        final StringBuilder sb = new StringBuilder();
        for (final int index : indices()) {
            if (sb.length() > 0) {
                sb.append('.');
            }
            sb.append(index);
        }
        return sb.toString();
    }

    private static int varintLength(final int value) {
        int n = 1;
        for (int v = value >>> 7; v != 0; v >>>= 7) {
            n++;
        }
        return n;
    }

    private static void writeVarint(final byte[] out, final int offset, final int value) {
        int i = offset;
        int v = value;
        while ((v & ~0x7F) != 0) {
            out[i++] = (byte)((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[i] = (byte)v;
    }
}
