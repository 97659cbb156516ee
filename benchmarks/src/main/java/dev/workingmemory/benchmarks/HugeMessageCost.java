package dev.workingmemory.benchmarks;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.workingmemory.WorkingMemoryProvider;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@link HugeMessageBenchmark}'s operation, measured as the CPU time of the calling thread beside the wall time: on a
 * machine shared with other builds, the wall time of one operation also holds the time the thread waited for a core,
 * which the CPU time does not. A {@code main}, not JMH: per shape, 20 operations to warm up, then 60 measured, each on a
 * memory of its own (forgotten afterwards); prints the median, the 99th percentile and the maximum of each.
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar dev.workingmemory.benchmarks.HugeMessageCost [shape…]} (all
 * seven shapes of {@link HugeMessageBenchmark} by default); the last line is {@code huge: worst p99 cpu=<ms> wall=<ms>}.
 */
public final class HugeMessageCost {

    private static final int WARM_UP = 20;
    private static final int MEASURED = 60;

    private HugeMessageCost() {
    }

    public static void main(String[] args) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ToolExecutionRequest request = ToolExecutionRequest.builder().id("call_0").name("run").arguments("{}").build();
        double worstCpu = 0;
        double worstWall = 0;
        System.out.printf(Locale.ROOT, "%-11s %-5s %28s %28s%n", "shape", "as", "cpu ms p50 / p99 / max",
                "wall ms p50 / p99 / max");
        List<String> shapes = args.length > 0 ? List.of(args)
                : List.of("newlines", "log", "binary", "tracebacks", "oneLine", "json", "backtracking");
        for (String shape : shapes) {
            String text = HugeMessageBenchmark.text(shape);
            for (String as : List.of("user", "tool")) {
                long[] cpu = new long[MEASURED];
                long[] wall = new long[MEASURED];
                try (WorkingMemoryProvider provider = WorkingMemoryProvider.builder()
                        .crystalStore(new CountingCrystalStore()).build()) {
                    for (int i = 0; i < WARM_UP + MEASURED; i++) {
                        String id = shape + "-" + as + "-" + i;
                        ChatMemory memory = provider.get(id);
                        ChatMessage message = HugeMessageBenchmark.prepare(memory, as, request, text);
                        long cpuStart = threads.getCurrentThreadCpuTime();
                        long wallStart = System.nanoTime();
                        memory.add(message);
                        memory.messages();
                        if (i >= WARM_UP) {
                            wall[i - WARM_UP] = System.nanoTime() - wallStart;
                            cpu[i - WARM_UP] = threads.getCurrentThreadCpuTime() - cpuStart;
                        }
                        provider.forget(id);
                    }
                }
                Arrays.sort(cpu);
                Arrays.sort(wall);
                worstCpu = Math.max(worstCpu, ms(cpu, 0.99));
                worstWall = Math.max(worstWall, ms(wall, 0.99));
                System.out.printf(Locale.ROOT, "%-11s %-5s %10.1f / %6.1f / %6.1f %10.1f / %6.1f / %6.1f%n", shape, as,
                        ms(cpu, 0.5), ms(cpu, 0.99), ms(cpu, 1), ms(wall, 0.5), ms(wall, 0.99), ms(wall, 1));
            }
        }
        System.out.printf(Locale.ROOT, "huge: worst p99 cpu=%.1f wall=%.1f%n", worstCpu, worstWall);
        System.exit(0);
    }

    private static double ms(long[] sorted, double quantile) {
        int index = (int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1);
        return sorted[Math.max(0, index)] / 1e6;
    }
}
