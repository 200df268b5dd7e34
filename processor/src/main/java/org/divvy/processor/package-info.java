/**
 * The Divvy annotation processor. Per class, in one javac round: validation ({@code SpawnableValidator},
 * {@code DataValidator}, {@code FieldsValidator}, with {@code TypeAnalyzer} deciding what can be sent)
 * reports every problem through one {@code Reporter} and builds a {@code Model} of plain records; only a
 * clean class whose generated names are free ({@code GeneratedNames}, against the user's {@code SourceTypes})
 * reaches the generators ({@code SpawnerGenerator}, {@code JobsGenerator},
 * {@code CodecGenerator}, all sharing {@code CodecEmitter} for wire code), which turn the model into
 * JavaPoet specs without making decisions. {@code LocalClassScanner} reports Divvy annotations in local and
 * anonymous classes, which the processing API never shows. Javac runs a processor on one thread; nothing here is shared
 * between processor instances.
 */
package org.divvy.processor;
