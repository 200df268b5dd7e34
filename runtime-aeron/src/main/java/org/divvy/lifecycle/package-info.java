/**
 * A node's lifecycle in a computation: joining (and the wait for it), the members application threads
 * wait for, a run's announcement (RUN_STARTED, which wakes idle peers) and the computation's end
 * (TERMINATE). {@link org.divvy.lifecycle.NodeLifecycle} is the monitor application threads wait on and
 * ask through; {@link org.divvy.lifecycle.LifecycleHandler} is its agent side.
 *
 * <p>Threads: {@code LifecycleHandler} and the flyweights belong to the network agent thread;
 * {@code NodeLifecycle} is shared, guarded by its one monitor (events are few), with its requests taken by
 * the agent thread.
 */
package org.divvy.lifecycle;
