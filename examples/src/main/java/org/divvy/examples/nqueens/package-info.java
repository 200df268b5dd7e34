/** N-queens solution counting with bitmasks, one spawn per queen placed in the first rows. */
package org.divvy.examples.nqueens;
