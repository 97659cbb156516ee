package dev.workingmemory.benchmarks;

import com.sun.management.OperatingSystemMXBean;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;

/**
 * {@link PerTurnBenchmark}'s and {@link PrunedTurnBenchmark}'s turns, measured as the CPU time of the calling thread:
 * on a machine shared with other builds, JMH's wall time of a microsecond turn mostly says how long the thread waited
 * for a core. A {@code main}: per case, the benchmark's own set-up and turns, 5 rounds of each memory in turn (so that
 * both sides of a ratio see the same load), the median round reported. Work the memory hands to its own threads (the
 * saver scoring salience, the cache writing outputs) is not the calling thread's and is not counted in those columns,
 * as in JMH; the last three columns are the process's CPU time per turn over the same rounds (every thread: the
 * memory's own, the collector's, the compiler's), for the working memory and the peer, so that work moved off the
 * calling thread shows there.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.workingmemory.benchmarks.PerTurnCost [turns [cases]]
 * [--forks N]} (default 200,000 turns per round; {@code cases}: a regular expression the line's first three columns,
 * such as {@code "pastTurns defaults chat"}, must contain to be run; default all). The layers {@code without…} are the
 * defaults without one layer: what that layer costs a turn is the difference to {@code defaults}.
 *
 * <p>{@code --forks N} runs the whole measure in N fresh JVMs, one after the other, and prints per case the median of
 * their figures with the range of the ratios: one JVM to the next, the same jar's ratio of a JSON turn was seen to
 * move by a third (the compiler's choices differ), more than most changes measured with it.
 */
public final class PerTurnCost {

    private static final int ROUNDS = 5;
    /** The columns' headings; a row has the same widths (ratios end in {@code x}, a column not measured is {@code -}). */
    static final String HEADER = "%-9s %-9s %-14s %12s %12s %12s %9s %9s %12s %12s %9s%n";

    private PerTurnCost() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        List<String> positional = new ArrayList<>();
        int forks = 1;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--forks") && i + 1 < args.length) {
                forks = Integer.parseInt(args[++i]);
            } else {
                positional.add(args[i]);
            }
        }
        if (forks < 1 || positional.size() > 2) {
            System.err.println("usage: PerTurnCost [turns [cases]] [--forks N], N at least 1");
            System.exit(2);
        }
        if (forks > 1) {
            Forks.run(forks, positional);
            System.exit(0);
        }
        int turns = !positional.isEmpty() ? Integer.parseInt(positional.get(0)) : 200_000;
        Pattern cases = Pattern.compile(positional.size() > 1 ? positional.get(1) : "");
        System.out.printf(Locale.ROOT, HEADER, "longTerm", "layers", "scenario", "working ns", "window ns", "peer ns",
                "÷window", "÷peer", "working all", "peer all", "÷peer all");
        for (String longTerm : List.of("none", "pastTurns")) {
            for (String layers : List.of("defaults", "hardening", "withoutPressure", "withoutSalience",
                    "withoutSessionSlots")) {
                for (String scenario : List.of("chat", "unchanged", "changed", "unchangedText")) {
                    if (cases.matcher(longTerm + " " + layers + " " + scenario).find()) {
                        perTurn(turns, longTerm, layers, scenario);
                    }
                }
            }
        }
        if (cases.matcher("pastTurns defaults pruned400").find()) {
            pruned(turns / 10);
        }
        System.exit(0);
    }

    private static void perTurn(int turns, String longTerm, String layers, String scenario) {
        PerTurnBenchmark bench = new PerTurnBenchmark();
        bench.scenario = scenario;
        bench.layers = layers;
        bench.longTerm = longTerm;
        bench.store = "memory";
        bench.setUp();
        try {
            Cost[] working = new Cost[ROUNDS];
            Cost[] window = new Cost[ROUNDS];
            Cost[] peer = new Cost[ROUNDS];
            run(turns, () -> bench.workingChatMemory(null)); // warm-up
            run(turns, () -> bench.messageWindowChatMemory(null));
            run(turns, () -> bench.messageWindowChatMemoryAndReadTree(null));
            for (int round = 0; round < ROUNDS; round++) {
                working[round] = run(turns, () -> bench.workingChatMemory(null));
                window[round] = run(turns, () -> bench.messageWindowChatMemory(null));
                peer[round] = run(turns, () -> bench.messageWindowChatMemoryAndReadTree(null));
            }
            double w = median(working, Cost::caller);
            double m = median(window, Cost::caller);
            double p = median(peer, Cost::caller);
            double wAll = median(working, Cost::process);
            double pAll = median(peer, Cost::process);
            System.out.printf(Locale.ROOT, "%-9s %-9s %-14s %12.0f %12.0f %12.0f %8.2fx %8.2fx %12.0f %12.0f %8.2fx%n",
                    longTerm, layers, scenario, w, m, p, w / m, w / p, wAll, pAll, wAll / pAll);
        } finally {
            try {
                bench.tearDown();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static void pruned(int turns) {
        PrunedTurnBenchmark bench = new PrunedTurnBenchmark();
        bench.setUp();
        try {
            Cost[] working = new Cost[ROUNDS];
            Cost[] window = new Cost[ROUNDS];
            run(turns, () -> bench.workingChatMemoryPruned(null));
            run(turns, () -> bench.messageWindowChatMemory(null));
            for (int round = 0; round < ROUNDS; round++) {
                working[round] = run(turns, () -> bench.workingChatMemoryPruned(null));
                window[round] = run(turns, () -> bench.messageWindowChatMemory(null));
            }
            double w = median(working, Cost::caller);
            double m = median(window, Cost::caller);
            System.out.printf(Locale.ROOT, "%-9s %-9s %-14s %12.0f %12.0f %12s %8.2fx %9s %12.0f %12s %9s%n",
                    "pastTurns", "defaults", "pruned400", w, m, "-", w / m, "-", median(working, Cost::process), "-",
                    "-");
        } finally {
            bench.tearDown();
        }
    }

    /** A round's CPU time per turn in nanoseconds: the calling thread's, and the whole process's. */
    private record Cost(double caller, double process) {
    }

    private static Cost run(int turns, Runnable turn) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long process = os.getProcessCpuTime();
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < turns; i++) {
            turn.run();
        }
        long caller = threads.getCurrentThreadCpuTime() - start;
        return new Cost((double) caller / turns, (double) (os.getProcessCpuTime() - process) / turns);
    }

    private static double median(Cost[] rounds, ToDoubleFunction<Cost> part) {
        List<Double> sorted = new ArrayList<>();
        for (Cost round : rounds) {
            sorted.add(part.applyAsDouble(round));
        }
        sorted.sort(Double::compare);
        return sorted.get(sorted.size() / 2);
    }
}
