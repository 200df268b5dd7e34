package org.divvy.examples.tsp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads TSPLIB {@code .tsp} files (Reinelt, "TSPLIB 95") of symmetric instances with the edge-weight types
 * {@code GEO}, {@code EUC_2D}, {@code ATT} and {@code EXPLICIT} ({@code FULL_MATRIX}, {@code LOWER_DIAG_ROW},
 * {@code UPPER_ROW}, {@code UPPER_DIAG_ROW}), and holds the instances shipped in this package's resources
 * with their published optima.
 */
public final class Tsplib {
    /** The shipped instances and their optimal tour lengths (TSPLIB's {@code STSP.html}). */
    public static final Map<String, Integer> KNOWN_OPTIMA = Map.of(
        "burma14", 3323, "ulysses16", 6859, "gr17", 2085, "ulysses22", 7013, "gr24", 1272, "fri26", 937,
        "att48", 10628, "berlin52", 7542);

    private Tsplib() {
    }

    /** One of the shipped instances, by name (e.g. {@code "gr24"}). */
    public static TspInstance load(final String name) {
        final InputStream in = Tsplib.class.getResourceAsStream(name + ".tsp");
        if (in == null) {
            throw new IllegalArgumentException("no TSPLIB instance named " + name + "; shipped: "
                + String.join(", ", new java.util.TreeSet<>(KNOWN_OPTIMA.keySet())));
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            return parse(name, reader);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses one TSPLIB file. */
    public static TspInstance parse(final String name, final BufferedReader reader) throws IOException {
        int dimension = -1;
        String weightType = null;
        String weightFormat = null;
        final List<double[]> coordinates = new ArrayList<>();
        final List<Integer> weights = new ArrayList<>();
        String section = "";
        String line;
        while ((line = reader.readLine()) != null) {
            final String trimmed = line.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            if (trimmed.equals("EOF")) {
                break;
            }
            final int colon = trimmed.indexOf(':');
            if (Character.isLetter(trimmed.charAt(0))) {
                final String key = (colon >= 0 ? trimmed.substring(0, colon) : trimmed).trim();
                final String value = colon >= 0 ? trimmed.substring(colon + 1).trim() : "";
                switch (key) {
                    case "DIMENSION" -> dimension = Integer.parseInt(value);
                    case "EDGE_WEIGHT_TYPE" -> weightType = value;
                    case "EDGE_WEIGHT_FORMAT" -> weightFormat = value;
                    case "TYPE" -> {
                        if (!value.startsWith("TSP")) {
                            throw new IllegalArgumentException(name + ": TYPE " + value + ", only TSP is supported");
                        }
                    }
                    default -> { }
                }
                section = key;
                continue;
            }
            final String[] fields = trimmed.split("\\s+");
            if (section.equals("NODE_COORD_SECTION")) {
                coordinates.add(new double[] {Double.parseDouble(fields[1]), Double.parseDouble(fields[2])});
            } else if (section.equals("EDGE_WEIGHT_SECTION")) {
                for (final String field : fields) {
                    weights.add(Integer.parseInt(field));
                }
            }
        }
        if (dimension < 0 || weightType == null) {
            throw new IllegalArgumentException(name + ": DIMENSION and EDGE_WEIGHT_TYPE are required");
        }
        final int n = dimension;
        final int[] distances = new int[n * n];
        if (weightType.equals("EXPLICIT")) {
            fillExplicit(name, n, weightFormat, weights, distances);
        } else {
            if (coordinates.size() != n) {
                throw new IllegalArgumentException(name + ": " + coordinates.size() + " coordinates for DIMENSION " + n);
            }
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    final double[] a = coordinates.get(i);
                    final double[] b = coordinates.get(j);
                    distances[i * n + j] = i == j ? 0 : switch (weightType) {
                        case "EUC_2D" -> euclidean2d(a[0], a[1], b[0], b[1]);
                        case "ATT" -> pseudoEuclidean(a[0], a[1], b[0], b[1]);
                        case "GEO" -> geographical(a[0], a[1], b[0], b[1]);
                        default -> throw new IllegalArgumentException(name + ": EDGE_WEIGHT_TYPE " + weightType
                            + " is not supported (GEO, EUC_2D, ATT, EXPLICIT are)");
                    };
                }
            }
        }
        return new TspInstance(name, n, distances);
    }

    private static void fillExplicit(final String name, final int n, final String format, final List<Integer> weights,
        final int[] distances) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            final int from;
            final int to;
            switch (format == null ? "" : format) {
                case "FULL_MATRIX" -> { from = 0; to = n - 1; }
                case "LOWER_DIAG_ROW" -> { from = 0; to = i; }
                case "UPPER_ROW" -> { from = i + 1; to = n - 1; }
                case "UPPER_DIAG_ROW" -> { from = i; to = n - 1; }
                default -> throw new IllegalArgumentException(name + ": EDGE_WEIGHT_FORMAT " + format
                    + " is not supported (FULL_MATRIX, LOWER_DIAG_ROW, UPPER_ROW, UPPER_DIAG_ROW are)");
            }
            for (int j = from; j <= to; j++) {
                if (k >= weights.size()) {
                    throw new IllegalArgumentException(name + ": EDGE_WEIGHT_SECTION ends after " + k + " weights");
                }
                final int w = weights.get(k++);
                distances[i * n + j] = w;
                distances[j * n + i] = w;
            }
        }
        if (k != weights.size()) {
            throw new IllegalArgumentException(name + ": EDGE_WEIGHT_SECTION has " + weights.size() + " weights, "
                + format + " of DIMENSION " + n + " needs " + k);
        }
    }

    /** TSPLIB's EUC_2D: the Euclidean distance rounded to the nearest integer. */
    public static int euclidean2d(final double x1, final double y1, final double x2, final double y2) {
        final double dx = x1 - x2;
        final double dy = y1 - y2;
        return (int)(Math.sqrt(dx * dx + dy * dy) + 0.5);
    }

    /** TSPLIB's ATT pseudo-Euclidean distance: rounded up when rounding to nearest would undershoot. */
    public static int pseudoEuclidean(final double x1, final double y1, final double x2, final double y2) {
        final double dx = x1 - x2;
        final double dy = y1 - y2;
        final double r = Math.sqrt((dx * dx + dy * dy) / 10.0);
        final int t = (int)(r + 0.5);
        return t < r ? t + 1 : t;
    }

    /**
     * TSPLIB's GEO distance in km on an idealised sphere: coordinates are DDD.MM (degrees and minutes),
     * converted with TSPLIB's own PI = 3.141592 and radius 6378.388.
     */
    public static int geographical(final double x1, final double y1, final double x2, final double y2) {
        final double latitude1 = radians(x1);
        final double longitude1 = radians(y1);
        final double latitude2 = radians(x2);
        final double longitude2 = radians(y2);
        final double q1 = Math.cos(longitude1 - longitude2);
        final double q2 = Math.cos(latitude1 - latitude2);
        final double q3 = Math.cos(latitude1 + latitude2);
        return (int)(6378.388 * Math.acos(0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3)) + 1.0);
    }

    private static double radians(final double coordinate) {
        final double pi = 3.141592;
        final int degrees = (int)coordinate; // TSPLIB's nint is truncation here: (int) of DDD.MM
        final double minutes = coordinate - degrees;
        return pi * (degrees + 5.0 * minutes / 3.0) / 180.0;
    }
}
