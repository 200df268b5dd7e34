package org.divvy.codegen;

/**
 * The codec of a type that reaches itself (a linked list node, a tree, a list of trees, a graph of
 * {@code @Wire} objects): it writes and reads a value one step at a time on the {@link WireWriter}'s and
 * {@link WireReader}'s own work stack instead of the thread's, so a linked list of a million nodes costs
 * heap, never a {@link StackOverflowError}, on whatever thread encodes it (a worker, the network agent).
 * Generated, one per such type; types that cannot reach themselves nest only as deep as their declaration
 * and keep plain recursive codecs.
 *
 * <p>A step writes or reads the parts of a value up to its next nested value of a recursive type, pushes
 * that one ({@link WireWriter#push}, {@link WireReader#push}) and returns the step to resume at once it is
 * done; the last step returns {@link #DONE}. A step pushes at most once, as its last action. While it runs,
 * its frame is the top one: {@code frame*} accessors of the writer and reader read and write it.
 *
 * <p>{@code typeKey} names the Java type ({@code java.util.List<p.Node>}): a back-reference read from the
 * wire must point to an object decoded as the same type, or it is rejected.
 *
 * <p>CONTRACT FOR GENERATED CODE (stable): the constructor, {@link #writeStep}, {@link #readStep}, {@link #DONE}.
 */
public abstract class NestedCodec<T> {
    /** Returned by a step when its value is complete. */
    public static final int DONE = -1;

    private final String typeKey;

    protected NestedCodec(final String typeKey) {
        this.typeKey = typeKey;
    }

    /** The Java type this codec writes, as generated code names it. */
    public final String typeKey() {
        return typeKey;
    }

    /**
     * Writes {@code value} from {@code step} on; returns the step to resume at after the value it pushed, or
     * {@link #DONE}. Step 0 writes the value's null or reference tag first.
     */
    public abstract int writeStep(WireWriter writer, T value, int step);

    /**
     * Reads from {@code step} on; {@code child} is the value the nested read pushed by the previous step
     * produced (null at step 0). Returns the step to resume at after the value it pushed, or {@link #DONE},
     * the value read then being the frame's {@link WireReader#frameValue()}.
     */
    public abstract int readStep(WireReader reader, int step, Object child);

    @Override
    public String toString() {
        return "NestedCodec[" + typeKey + "]";
    }
}
