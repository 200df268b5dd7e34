/**
 * The annotations a Divvy user writes: {@link org.divvy.annotations.Spawnable} methods and their
 * {@link org.divvy.annotations.Guard}s, {@link org.divvy.annotations.SharedObject} classes and their
 * {@link org.divvy.annotations.Write} methods, and {@link org.divvy.annotations.Wire} types. They are
 * read at compile time by the Divvy processor (retention CLASS, so incremental build tools see them).
 */
package org.divvy.annotations;
