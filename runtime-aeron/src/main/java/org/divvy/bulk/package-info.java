/**
 * Copies of messages of hundreds of megabytes, bounded so that a safepoint can come between their steps.
 * A single {@code putBytes} of 200 MB is one uninterruptible step (a copy stub, no safepoint poll inside):
 * every other thread of the JVM, the network agent included, waits for it at the next stop-the-world
 * pause. {@link org.divvy.bulk.SlicedCopy} copies in slices with a poll between them.
 *
 * <p>Stateless; any thread.
 */
package org.divvy.bulk;
