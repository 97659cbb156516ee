package dev.workingmemory.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@link PerTurnCost} in several fresh JVMs, one after the other: per case, the median of the forks' figures and the
 * range of its ratios. A fork is this JVM's class path and options with the same turns and cases.
 */
final class Forks {

    /** The columns of a {@link PerTurnCost} row after its case's three names. */
    private static final int FIGURES = 8;
    /** The ratio columns among them whose range is printed: {@code ÷peer} and {@code ÷peer all}. */
    private static final int PEER_RATIO = 4;
    private static final int PEER_ALL_RATIO = 7;
    /** {@link PerTurnCost}'s columns and two more, the ranges. */
    private static final String COLUMNS = PerTurnCost.HEADER.replace("%n", " %13s %13s%n");

    private Forks() {
    }

    static void run(int forks, List<String> args) throws IOException, InterruptedException {
        Map<String, List<double[]>> rows = new LinkedHashMap<>();
        for (int fork = 1; fork <= forks; fork++) {
            for (String line : fork(args)) {
                String[] columns = line.trim().split("\\s+");
                if (columns.length != 3 + FIGURES || !(columns[0].equals("none") || columns[0].equals("pastTurns"))) {
                    continue; // the heading, or a library's log line
                }
                double[] figures = new double[FIGURES];
                for (int i = 0; i < FIGURES; i++) {
                    String value = columns[3 + i];
                    figures[i] = value.equals("-") ? Double.NaN
                            : Double.parseDouble(value.endsWith("x") ? value.substring(0, value.length() - 1) : value);
                }
                rows.computeIfAbsent(columns[0] + " " + columns[1] + " " + columns[2], key -> new ArrayList<>())
                        .add(figures);
            }
            System.err.printf(Locale.ROOT, "fork %d of %d done%n", fork, forks);
        }
        System.out.printf(Locale.ROOT, "medians of %d forks (÷peer and ÷peer all: median and range)%n", forks);
        System.out.printf(Locale.ROOT, COLUMNS, "longTerm", "layers",
                "scenario", "working ns", "window ns", "peer ns", "÷window", "÷peer", "working all", "peer all",
                "÷peer all", "÷peer range", "÷all range");
        for (Map.Entry<String, List<double[]>> row : rows.entrySet()) {
            String[] names = row.getKey().split(" ");
            double[] median = new double[FIGURES];
            for (int i = 0; i < FIGURES; i++) {
                median[i] = median(row.getValue(), i);
            }
            System.out.printf(Locale.ROOT, COLUMNS, names[0], names[1], names[2], ns(median[0]), ns(median[1]),
                    ns(median[2]), ratio(median[3]), ratio(median[4]), ns(median[5]), ns(median[6]), ratio(median[7]),
                    range(row.getValue(), PEER_RATIO), range(row.getValue(), PEER_ALL_RATIO));
        }
    }

    private static List<String> fork(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(PerTurnCost.class.getName());
        command.addAll(args);
        Path errors = Files.createTempFile("per-turn-fork", ".err");
        try {
            Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
            List<String> lines = new ArrayList<>();
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    lines.add(line);
                }
            }
            int exit = process.waitFor();
            if (exit != 0) {
                throw new IllegalStateException("a fork of PerTurnCost exited with " + exit + ":\n"
                        + Files.readString(errors));
            }
            return lines;
        } finally {
            Files.deleteIfExists(errors);
        }
    }

    private static double median(List<double[]> forks, int column) {
        double[] values = forks.stream().mapToDouble(figures -> figures[column]).sorted().toArray();
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    private static String range(List<double[]> forks, int column) {
        double[] values = forks.stream().mapToDouble(figures -> figures[column]).toArray();
        if (Double.isNaN(values[0])) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.2f–%.2f", Arrays.stream(values).min().orElseThrow(),
                Arrays.stream(values).max().orElseThrow());
    }

    private static String ns(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.0f", value);
    }

    private static String ratio(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2fx", value);
    }
}
