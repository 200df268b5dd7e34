/**
 * Checking mode ({@code NodeConfig.checkCodecs}): a node sends every spawned job and every result
 * through the generated codecs, as a stolen job's would go, so that a program that would break on several
 * nodes breaks the same way on one.
 */
package org.divvy.checking;
