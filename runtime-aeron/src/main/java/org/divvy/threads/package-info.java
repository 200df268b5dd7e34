/**
 * A node's helper threads, each of which works through a queue of its own: {@link org.divvy.threads.QueueThread},
 * the life cycle they share (started with the first item, a daemon, stopped by {@code close}, which hands back what
 * it did not take), and {@link org.divvy.threads.TaskThread}, a queue of tasks (the codec thread's). The off-heap
 * memory's freeing thread ({@code bulk.OffHeapMemory}) is a queue thread of frames to free.
 *
 * <p>Imports nothing of Divvy. Any thread may queue an item; the queue thread alone handles it.
 */
package org.divvy.threads;
