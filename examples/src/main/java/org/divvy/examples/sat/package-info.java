/**
 * SAT by cube and conquer over an own CDCL solver built to export and import learned clauses; SATLIB instances
 * shipped as resources and seeded random 3-SAT. Models are checked against every clause, unsatisfiability
 * against SATLIB's label or the sequential solver.
 */
package org.divvy.examples.sat;
