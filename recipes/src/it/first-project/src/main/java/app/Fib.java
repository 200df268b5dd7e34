package app;

import org.divvy.LongSpawn;
import org.divvy.annotations.Spawnable;

/** A user's spawnable class: FibSpawner is generated from it. */
public class Fib implements FibSpawner {
    @Spawnable
    public long fib(int n) {
        if (n < 2) {
            return n;
        }
        LongSpawn a = spawnFib(n - 1);
        LongSpawn b = spawnFib(n - 2);
        sync();
        return a.get() + b.get();
    }
}
