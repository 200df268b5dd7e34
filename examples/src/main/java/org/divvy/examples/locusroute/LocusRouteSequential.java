package org.divvy.examples.locusroute;

/**
 * LocusRoute-style global routing (Rose, 1988), sequentially: a cost array holds how many wires run through each
 * cell; each wire takes the two-bend route of least cost (the sum of the cost array over its cells), then adds
 * itself to the array. Routes are "horizontal, vertical, horizontal" with the vertical at any column between the
 * pins, or "vertical, horizontal, vertical" with the horizontal at any row between them. Later iterations rip
 * each wire up and route it again against everyone else's routes, which removes most early bad choices.
 */
public final class LocusRouteSequential {
    private LocusRouteSequential() {
    }

    /** The routes after {@code iterations} passes over the wires (the first routes, later ones reroute). */
    public static Routing route(final Circuit circuit, final int iterations) {
        final int[] costs = new int[circuit.width() * circuit.height()];
        final int[] routes = new int[circuit.wires()];
        java.util.Arrays.fill(routes, -1);
        for (int iteration = 0; iteration < iterations; iteration++) {
            routeWires(circuit, costs, routes, 0, circuit.wires());
        }
        return Routing.of(circuit, routes);
    }

    /**
     * Routes wires {@code from .. to - 1} one after the other into {@code costs}: each is ripped up (if routed),
     * given its cheapest route, and added back; {@code routes} is updated in place.
     */
    public static void routeWires(final Circuit circuit, final int[] costs, final int[] routes, final int from,
        final int to) {
        for (int w = from; w < to; w++) {
            reroute(circuit, costs, routes, w);
        }
    }


    /**
     * Rips wire {@code w} up (if routed), gives it its cheapest route against {@code costs} and adds it back. A
     * routed wire keeps its route unless another is strictly cheaper, so rerouting does not shuffle wires between
     * equal routes.
     */
    public static void reroute(final Circuit circuit, final int[] costs, final int[] routes, final int w) {
        final int present = routes[w];
        if (present >= 0) {
            walk(circuit, w, present, costs, -1);
        }
        routes[w] = cheapestRoute(circuit, w, costs, present);
        walk(circuit, w, routes[w], costs, 1);
    }

    /**
     * The wires in the order of a Z-order (Morton) curve through their pins' midpoints: wires near each other on the
     * grid are near each other in the order, so a contiguous range of it is a compact region (LocusRoute's
     * geographic assignment of wires to processors).
     */
    public static int[] geographicOrder(final Circuit circuit) {
        final int[] pins = circuit.pins();
        final long[] keyed = new long[circuit.wires()];
        for (int w = 0; w < circuit.wires(); w++) {
            final int mx = (pins[4 * w] + pins[4 * w + 2]) >> 1;
            final int my = (pins[4 * w + 1] + pins[4 * w + 3]) >> 1;
            keyed[w] = interleave(mx, my) << 24 | w; // wire numbers below 2^24 (the app's bound)
        }
        java.util.Arrays.sort(keyed);
        final int[] order = new int[keyed.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = (int)(keyed[i] & 0xFFFFFF);
        }
        return order;
    }

    /** The Morton code of (x, y), 14 bits each (grids up to 10,000 cells a side fit). */
    private static long interleave(final int x, final int y) {
        long code = 0;
        for (int bit = 0; bit < 14; bit++) {
            code |= (long)(x >> bit & 1) << (2 * bit) | (long)(y >> bit & 1) << (2 * bit + 1);
        }
        return code;
    }

    /**
     * The cheapest route of wire {@code w} against {@code costs}, encoded as {@code 2 * position + kind}: kind 0
     * bends at column {@code position} (horizontal, vertical, horizontal), kind 1 at row {@code position}
     * (vertical, horizontal, vertical). Ties go to {@code present} (a route, or -1), then to the first candidate,
     * columns before rows, so routing is deterministic.
     */
    public static int cheapestRoute(final Circuit circuit, final int w, final int[] costs, final int present) {
        final int[] pins = circuit.pins();
        return cheapestRoute(circuit.width(), pins[4 * w], pins[4 * w + 1], pins[4 * w + 2], pins[4 * w + 3], costs,
            present);
    }

    /** {@link #cheapestRoute(Circuit, int, int[], int)} of the wire from (x1, y1) to (x2, y2) on a grid {@code width} wide. */
    public static int cheapestRoute(final int width, final int x1, final int y1, final int x2, final int y2,
        final int[] costs, final int present) {
        long best = present >= 0 ? walk(width, x1, y1, x2, y2, present, costs, 0) : Long.MAX_VALUE;
        int bestRoute = present;
        for (int c = Math.min(x1, x2); c <= Math.max(x1, x2); c++) {
            final long cost = walk(width, x1, y1, x2, y2, 2 * c, costs, 0);
            if (cost < best) {
                best = cost;
                bestRoute = 2 * c;
            }
        }
        for (int r = Math.min(y1, y2); r <= Math.max(y1, y2); r++) {
            final long cost = walk(width, x1, y1, x2, y2, 2 * r + 1, costs, 0);
            if (cost < best) {
                best = cost;
                bestRoute = 2 * r + 1;
            }
        }
        return bestRoute;
    }

    /** Whether {@code route} is one of wire {@code w}'s two-bend routes: its bend lies between the pins. */
    public static boolean isValidRoute(final Circuit circuit, final int w, final int route) {
        if (route < 0) {
            return false;
        }
        final int[] pins = circuit.pins();
        final int bend = route >> 1;
        final int a = (route & 1) == 0 ? pins[4 * w] : pins[4 * w + 1];
        final int b = (route & 1) == 0 ? pins[4 * w + 2] : pins[4 * w + 3];
        return bend >= Math.min(a, b) && bend <= Math.max(a, b);
    }

    /**
     * Visits each cell of wire {@code w}'s {@code route} once, adding {@code delta} to it in {@code grid}; returns
     * the sum of the grid over the cells before the change when {@code delta} is 0, the number of cells otherwise.
     */
    public static long walk(final Circuit circuit, final int w, final int route, final int[] grid, final int delta) {
        final int[] pins = circuit.pins();
        return walk(circuit.width(), pins[4 * w], pins[4 * w + 1], pins[4 * w + 2], pins[4 * w + 3], route, grid, delta);
    }

    /** {@link #walk(Circuit, int, int, int[], int)} for the wire from (x1, y1) to (x2, y2) on a grid {@code width} wide. */
    public static long walk(final int width, final int x1, final int y1, final int x2, final int y2, final int route,
        final int[] grid, final int delta) {
        final int bend = route >> 1;
        long sum = 0;
        long cells = 0;
        if ((route & 1) == 0) { // row y1 from x1 to the bend column, the column to y2, row y2 to x2
            final int sx = Integer.signum(bend - x1);
            for (int x = x1; ; x += sx) {
                sum += grid[y1 * width + x];
                grid[y1 * width + x] += delta;
                cells++;
                if (x == bend) {
                    break;
                }
            }
            final int sy = Integer.signum(y2 - y1);
            for (int y = y1; y != y2; ) {
                y += sy;
                sum += grid[y * width + bend];
                grid[y * width + bend] += delta;
                cells++;
            }
            final int tx = Integer.signum(x2 - bend);
            for (int x = bend; x != x2; ) {
                x += tx;
                sum += grid[y2 * width + x];
                grid[y2 * width + x] += delta;
                cells++;
            }
        } else { // column x1 from y1 to the bend row, the row to x2, column x2 to y2
            final int sy = Integer.signum(bend - y1);
            for (int y = y1; ; y += sy) {
                sum += grid[y * width + x1];
                grid[y * width + x1] += delta;
                cells++;
                if (y == bend) {
                    break;
                }
            }
            final int sx = Integer.signum(x2 - x1);
            for (int x = x1; x != x2; ) {
                x += sx;
                sum += grid[bend * width + x];
                grid[bend * width + x] += delta;
                cells++;
            }
            final int ty = Integer.signum(y2 - bend);
            for (int y = bend; y != y2; ) {
                y += ty;
                sum += grid[y * width + x2];
                grid[y * width + x2] += delta;
                cells++;
            }
        }
        return delta == 0 ? sum : cells;
    }
}
