/**
 * The contract between generated code and the runtime: what the annotation processor's output extends
 * and calls, and nothing else. Users never write these types by hand.
 *
 * <ul>
 *   <li>Jobs: a generated job record extends the result-specialised subclass of {@link org.divvy.codegen.Job}
 *   for its method's return type ({@link org.divvy.codegen.LongJob}, {@link org.divvy.codegen.IntJob},
 *   {@link org.divvy.codegen.DoubleJob}, {@link org.divvy.codegen.BooleanJob},
 *   {@link org.divvy.codegen.VoidJob}, {@link org.divvy.codegen.ObjectJob}) and implements {@code call()},
 *   {@code type()} and {@code encodeArguments}.</li>
 *   <li>Spawning: a generated spawn stub passes a new job record to {@link org.divvy.codegen.Spawns#spawn}.</li>
 *   <li>Decoding: a generated {@link org.divvy.codegen.JobType} per spawnable method, listed by a generated
 *   {@link org.divvy.codegen.JobTypeProvider} per class, registered in
 *   {@code META-INF/services/org.divvy.codegen.JobTypeProvider}.</li>
 *   <li>Codecs: generated codecs write and read with {@link org.divvy.codegen.WireWriter} and
 *   {@link org.divvy.codegen.WireReader}, and report bad bytes with
 *   {@link org.divvy.codegen.WireDecodeException}.</li>
 * </ul>
 *
 * <p>Threads: a job record is built on the worker that spawns it and then belongs to the scheduler;
 * readers and writers are owned by one thread each (the network agent's, or a test's).
 */
package org.divvy.codegen;
