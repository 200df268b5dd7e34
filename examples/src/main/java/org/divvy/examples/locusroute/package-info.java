/**
 * LocusRoute-style global routing: a grid cost array, two-bend routes of least cost, rip-up and reroute; groups of
 * wires routed by spawned jobs against the iteration's starting costs. Quality checked against the sequential
 * router within a stated bound.
 */
package org.divvy.examples.locusroute;
