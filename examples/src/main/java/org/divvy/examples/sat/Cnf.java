package org.divvy.examples.sat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A formula in conjunctive normal form with DIMACS literals ({@code v} or {@code -v}, variables numbered from 1):
 * clause {@code i} is {@code literals[starts[i] .. starts[i + 1])}. A record of arrays, so it travels with stolen
 * jobs.
 *
 * @param name      where it came from, e.g. {@code "uf50-01"} or {@code "random-3sat-100-seed-1"}
 * @param variables the number of variables
 * @param literals  every clause's literals, one clause after the other
 * @param starts    where each clause starts in {@code literals}, plus one entry for the end
 */
public record Cnf(String name, int variables, int[] literals, int[] starts) {
    public int clauses() {
        return starts.length - 1;
    }

    /** Clause {@code i}'s literals (a copy). */
    public int[] clause(final int i) {
        return java.util.Arrays.copyOfRange(literals, starts[i], starts[i + 1]);
    }

    /** Whether {@code model} (indexed by variable, entry 0 unused) makes every clause true. */
    public boolean satisfiedBy(final boolean[] model) {
        if (model.length != variables + 1) {
            return false;
        }
        for (int i = 0; i < clauses(); i++) {
            boolean satisfied = false;
            for (int k = starts[i]; k < starts[i + 1] && !satisfied; k++) {
                final int literal = literals[k];
                satisfied = model[Math.abs(literal)] == literal > 0;
            }
            if (!satisfied) {
                return false;
            }
        }
        return true;
    }

    /** A formula from its clauses. */
    public static Cnf of(final String name, final int variables, final List<int[]> clauses) {
        final int[] starts = new int[clauses.size() + 1];
        int size = 0;
        for (int i = 0; i < clauses.size(); i++) {
            starts[i] = size;
            size += clauses.get(i).length;
        }
        starts[clauses.size()] = size;
        final int[] literals = new int[size];
        for (int i = 0; i < clauses.size(); i++) {
            System.arraycopy(clauses.get(i), 0, literals, starts[i], clauses.get(i).length);
        }
        return new Cnf(name, variables, literals, starts);
    }

    /**
     * Parses DIMACS CNF: comment lines {@code c ...}, the header {@code p cnf V C}, then clauses as literals
     * ended by {@code 0}, across lines as they come. A {@code %} line ends the formula (SATLIB's files end with
     * {@code %} and a stray {@code 0}).
     */
    public static Cnf parseDimacs(final String name, final BufferedReader reader) throws IOException {
        int variables = -1;
        int declaredClauses = -1;
        final List<int[]> clauses = new ArrayList<>();
        final List<Integer> current = new ArrayList<>();
        String line;
        int lineNumber = 0;
        while ((line = reader.readLine()) != null) {
            lineNumber++;
            final String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("c")) {
                continue;
            }
            if (trimmed.startsWith("%")) {
                break;
            }
            if (trimmed.startsWith("p")) {
                final String[] fields = trimmed.split("\\s+");
                if (fields.length != 4 || !fields[1].equals("cnf")) {
                    throw new IllegalArgumentException(name + ":" + lineNumber + ": expected 'p cnf VARIABLES CLAUSES', got '"
                        + trimmed + "'");
                }
                variables = Integer.parseInt(fields[2]);
                declaredClauses = Integer.parseInt(fields[3]);
                continue;
            }
            if (variables < 0) {
                throw new IllegalArgumentException(name + ":" + lineNumber + ": a clause before the 'p cnf' header");
            }
            for (final String field : trimmed.split("\\s+")) {
                final int literal = Integer.parseInt(field);
                if (literal == 0) {
                    clauses.add(current.stream().mapToInt(Integer::intValue).toArray());
                    current.clear();
                } else if (Math.abs(literal) > variables) {
                    throw new IllegalArgumentException(name + ":" + lineNumber + ": literal " + literal
                        + " beyond the header's " + variables + " variables");
                } else {
                    current.add(literal);
                }
            }
        }
        if (!current.isEmpty()) {
            clauses.add(current.stream().mapToInt(Integer::intValue).toArray()); // a last clause without its 0
        }
        if (variables < 0) {
            throw new IllegalArgumentException(name + ": no 'p cnf' header");
        }
        if (clauses.size() != declaredClauses) {
            throw new IllegalArgumentException(name + ": the header declares " + declaredClauses + " clauses, the file has "
                + clauses.size());
        }
        return of(name, variables, clauses);
    }

    /** One of the instances shipped in this package's resources, by name without {@code .cnf}. */
    public static Cnf load(final String name) {
        final InputStream in = Cnf.class.getResourceAsStream(name + ".cnf");
        if (in == null) {
            throw new IllegalArgumentException("no DIMACS instance named " + name + "; shipped: "
                + String.join(", ", SatInstances.SHIPPED));
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            return parseDimacs(name, reader);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A seeded uniform random 3-SAT formula: {@code clauses} clauses of three distinct variables, each negated
     * with probability 1/2. Near 4.26 clauses per variable, about half are satisfiable and they are hardest.
     */
    public static Cnf random3Sat(final int variables, final int clauses, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<int[]> list = new ArrayList<>(clauses);
        for (int i = 0; i < clauses; i++) {
            final int a = 1 + random.nextInt(variables);
            int b;
            do {
                b = 1 + random.nextInt(variables);
            } while (b == a);
            int c;
            do {
                c = 1 + random.nextInt(variables);
            } while (c == a || c == b);
            list.add(new int[] {random.nextBoolean() ? a : -a, random.nextBoolean() ? b : -b, random.nextBoolean() ? c : -c});
        }
        return of("random-3sat-" + variables + "x" + clauses + "-seed-" + seed, variables, list);
    }
}
