/**
 * The {@code portable} app: a program that must behave the same on one node and on N. Children on
 * (usually) another node throw a JDK exception, a declared user exception and a {@code @Wire} user exception
 * that the parent catches by class around {@code sync()}, and take a million-long linked list and a cyclic
 * ring as arguments.
 */
package org.divvy.examples.portable;
