/**
 * Who runs a run's root (thesis §3.3, "the master may die"): {@link org.divvy.mastership.Mastership}, a node's
 * side: it hands roots to the registry, runs the roots the registry gives it (again, restarted, when their
 * master died), and reports their values to the registry. The registry's side, which chooses the masters, is
 * {@link org.divvy.membership.RootKeeper}.
 */
package org.divvy.mastership;
