package org.divvy.examples.sat;

import java.util.List;

/** The DIMACS instances shipped in this package's resources (see the README beside them). */
public final class SatInstances {
    /** Their names, smallest first; SATLIB's {@code uf} ones are satisfiable, its {@code uuf} ones unsatisfiable. */
    public static final List<String> SHIPPED = List.of("uf20-01", "uf50-01", "uuf50-01", "uf100-01", "uuf100-01",
        "uf150-016", "uuf150-020", "uf175-012", "uuf175-040");

    private SatInstances() {
    }

    /**
     * Whether SATLIB says the instance is satisfiable: {@code TRUE} for its {@code uf} family (satisfiable by
     * construction of the benchmark set), {@code FALSE} for {@code uuf}, null for anything else.
     */
    public static Boolean publishedSatisfiable(final String name) {
        if (!SHIPPED.contains(name)) {
            return null;
        }
        return name.startsWith("uf");
    }
}
