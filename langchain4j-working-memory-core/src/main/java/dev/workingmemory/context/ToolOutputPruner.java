package dev.workingmemory.context;

import dev.workingmemory.internal.Ensure;
import dev.workingmemory.internal.ErrorLines;
import dev.workingmemory.layer.AnalyzedText;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Shortens a tool result for the model (seed 003, tier 3), as a pure function: the same text, mode and hint always
 * give the same result, and nothing is stored here (keeping the full output retrievable is the caller's part).
 *
 * <p>An output of at most the mode's {@link PruningLimits#maxLines() maxLines} lines, none longer than
 * {@link PruningLimits#maxLineChars() maxLineChars}, comes back unchanged: the same {@code String} instance. A longer
 * one is pruned:
 * <ol>
 *   <li>A file listing or directory tree ({@code find}, glob, {@code ls -R}, {@code ls -l}, {@code tree}) is
 *       collapsed to one line per directory with its entry count and first names, or, for a tree, to the depth that
 *       fits with deeper entries counted.</li>
 *   <li>Otherwise runs of {@linkplain #builder() at least four} near-identical consecutive lines (log lines that
 *       differ in their timestamps, downloads, progress) become their first line,
 *       {@code [... 120 similar lines (lines 3-122) ...]}
 *       and their last line. Two lines are near-identical when, with digits masked, they are equal or share a prefix
 *       of at least half the longer one. Error lines never join a run.</li>
 *   <li>When that is still longer than {@code headLines + tailLines + 1} lines (seed 003 keeps 30 + 30 of an output
 *       over 50 lines: one of 51 to 61 lines is only collapsed), the first {@code headLines} and last
 *       {@code tailLines} lines are kept; from the part between, error lines ({@link ErrorLines}: {@code ERROR}, {@code Exception:},
 *       {@code FAILED}, {@code error:}, {@code BUILD FAILURE}, a non-zero exit code, ...) are kept, at most
 *       {@code maxErrorLines}, each between markers saying how many lines were cut.</li>
 *   <li>Every line kept that is longer than {@code maxLineChars} (a single-line output too: minified JSON, base64)
 *       keeps its first and last {@code maxLineChars * 2 / 5} characters around {@code [... N chars cut ...]}.</li>
 * </ol>
 * The result ends with a line {@code [Pruned tool output: 400 lines, 18230 chars; cut 339 lines (15102 chars), kept
 * 1 error line from them.]} followed by the caller's retrieval hint. Markers are ASCII.
 *
 * <p>Linear in the size of the output: lines are indexed once, only the lines shown are copied, each line is
 * classified by its first 2,000 characters, and no regular expression runs over the whole text. An output longer
 * than the {@code maxAnalyzedChars} given to {@link #prune(String, PruningMode, String, int)} is read as its first and
 * last halves of that many characters and the first error lines between them ({@link AnalyzedText#window}): the other
 * lines between are cut unread (a marker says how many), and the summary counts the whole output.
 *
 * <p>Immutable and thread-safe.
 */
public final class ToolOutputPruner {

    /** Characters of two lines compared to tell whether they are near-identical. */
    private static final int COMPARED_CHARS = 256;
    private static final int MIN_SHARED_PREFIX = 12;

    private final Map<PruningMode, PruningLimits> limits;
    private final int minSimilarRun;
    private final int namesPerDirectory;

    private ToolOutputPruner(Builder builder) {
        this.limits = Collections.unmodifiableMap(new EnumMap<>(builder.limits));
        Ensure.that(builder.minSimilarRun >= 3, "minSimilarRun must be at least 3 (a run shows its first and last line),"
                + " was " + builder.minSimilarRun);
        this.minSimilarRun = builder.minSimilarRun;
        this.namesPerDirectory = Ensure.positive(builder.namesPerDirectory, "namesPerDirectory");
    }

    /** Seed 003's limits: see {@link Builder}. */
    public static ToolOutputPruner defaults() {
        return builder().build();
    }

    /** A builder that starts from seed 003's limits. */
    public static Builder builder() {
        return new Builder();
    }

    /** The limits this pruner applies in {@code mode}. */
    public PruningLimits limits(PruningMode mode) {
        return limits.get(Ensure.notNull(mode, "mode"));
    }

    /**
     * @param text          a tool result's text
     * @param mode          how hard to cut
     * @param retrievalHint how the model gets the full output back, appended to a pruned text (for example
     *                      {@code "The full output is kept: memory_search(\"build log\") finds it."}); may be {@code null}
     * @return the text to show, the original instance when it is within the mode's limits
     */
    public PrunedOutput prune(String text, PruningMode mode, String retrievalHint) {
        return prune(text, mode, retrievalHint, Integer.MAX_VALUE);
    }

    /**
     * {@link #prune(String, PruningMode, String)} reading at most {@code maxAnalyzedChars} of {@code text}: a longer
     * output is pruned from its first and last halves of that many characters and the error lines between them, the
     * other lines between cut unread.
     */
    public PrunedOutput prune(String text, PruningMode mode, String retrievalHint, int maxAnalyzedChars) {
        Ensure.notNull(text, "text");
        Ensure.positive(maxAnalyzedChars, "maxAnalyzedChars");
        PruningLimits limit = limits(mode);
        if (text.length() > maxAnalyzedChars) {
            return pruneWindow(text, limit, retrievalHint, maxAnalyzedChars);
        }
        LineIndex lines = new LineIndex(text);
        if (lines.count() <= limit.maxLines() && lines.longest() <= limit.maxLineChars()) {
            return PrunedOutput.unchanged(text, lines.count());
        }
        return pruneLines(text, lines, limit, retrievalHint, Unread.NONE);
    }

    /**
     * Prunes the head and tail of a huge output and the error lines between them ({@link AnalyzedText#window}), with a
     * line standing for each stretch of lines not read: a marker, cut with the middle as one of its lines or shown
     * saying how many there are.
     */
    private PrunedOutput pruneWindow(String text, PruningLimits limit, String hint, int maxChars) {
        AnalyzedText.Window read = AnalyzedText.window(text, maxChars);
        StringBuilder window = new StringBuilder(maxChars + 256).append(text, 0, read.headEnd());
        int line = LineIndex.breaks(text, 0, read.headEnd()) + 1; // the head's lines: the first marker's line
        Map<Integer, Integer> markers = new HashMap<>();
        int from = read.headEnd();
        List<AnalyzedText.Span> spans = new ArrayList<>(read.errorLines());
        spans.add(new AnalyzedText.Span(read.tailStart(), text.length()));
        for (AnalyzedText.Span span : spans) {
            int unreadLines = Math.max(1, LineIndex.breaks(text, from, span.start()) - 1);
            String marker = "[... " + unreadLines + (unreadLines == 1 ? " line" : " lines") + " ("
                    + (span.start() - from) + " chars) not read ...]";
            markers.put(line, unreadLines);
            window.append('\n').append(marker).append('\n').append(text, span.start(), span.end());
            line += 2;
            from = span.end();
        }
        LineIndex lines = new LineIndex(window.toString());
        return pruneLines(text, lines, limit, hint, new Unread(markers, LineIndex.count(text)));
    }

    /**
     * The lines of a huge output that were not read, each stretch replaced by one marker line.
     *
     * @param markers    each marker's line in the text pruned, with how many lines of the output it stands for
     * @param totalLines the output's lines
     */
    private record Unread(Map<Integer, Integer> markers, int totalLines) {
        static final Unread NONE = new Unread(Map.of(), -1);

        boolean isMarker(int line) {
            return markers.containsKey(line);
        }

        /** The number, counting from 1, of the output's line that {@code line} of the text pruned is (or starts). */
        int outputLine(int line) {
            int number = line + 1;
            for (Map.Entry<Integer, Integer> marker : markers.entrySet()) {
                if (marker.getKey() < line) {
                    number += marker.getValue() - 1;
                }
            }
            return number;
        }
    }

    private PrunedOutput pruneLines(String text, LineIndex lines, PruningLimits limit, String retrievalHint, Unread unread) {
        Output out = new Output(lines, limit, unread);
        List<String> listing = Listings.collapse(lines, limit.maxLines() - 2, namesPerDirectory);
        if (listing != null) {
            out.listing(listing);
        } else if (!out.units(units(lines)) && unread.markers().isEmpty()) {
            return PrunedOutput.unchanged(text, lines.count()); // over maxLines, but nothing to collapse or cut
        }
        return out.finish(text.length(), retrievalHint);
    }

    /** The lines as units: single lines, and runs of near-identical lines. */
    private List<Unit> units(LineIndex lines) {
        int count = lines.count();
        boolean[] error = new boolean[count];
        for (int start : ErrorLines.starts(lines.text(), 0, lines.text().length(), Integer.MAX_VALUE)) {
            error[lines.lineAt(start)] = true;
        }
        LineHeads heads = new LineHeads(lines);
        List<Unit> units = new ArrayList<>();
        int i = 0;
        while (i < count) {
            int end = i + 1;
            if (!error[i]) {
                while (end < count && !error[end] && heads.similar(i, end)) {
                    end++;
                }
            }
            if (end - i >= minSimilarRun) {
                units.add(new Unit(i, end - 1, false));
                i = end;
            } else {
                units.add(new Unit(i, i, error[i]));
                i++;
            }
        }
        return units;
    }

    /**
     * The first {@link #COMPARED_CHARS} characters of every line in one array, so that two lines are compared with
     * {@link Arrays#mismatch} (vectorized by the JVM) instead of char by char; a mismatch of two digits is stepped over.
     */
    private static final class LineHeads {
        private final LineIndex lines;
        private final int[] offsets;
        private final char[] chars;

        LineHeads(LineIndex lines) {
            this.lines = lines;
            int count = lines.count();
            offsets = new int[count];
            String text = lines.text();
            if (lines.longest() <= COMPARED_CHARS) {
                chars = text.toCharArray(); // every line is compared whole: one copy of the text
                for (int i = 0; i < count; i++) {
                    offsets[i] = lines.start(i);
                }
            } else {
                int total = 0;
                for (int i = 0; i < count; i++) {
                    offsets[i] = total;
                    total += Math.min(COMPARED_CHARS, lines.length(i));
                }
                chars = new char[total];
                for (int i = 0; i < count; i++) {
                    text.getChars(lines.start(i), lines.start(i) + Math.min(COMPARED_CHARS, lines.length(i)), chars,
                            offsets[i]);
                }
            }
        }

        /** Whether two lines are near-identical: with digits masked, equal, or sharing a prefix of half the longer one. */
        boolean similar(int a, int b) {
            int lengthA = lines.length(a);
            int lengthB = lines.length(b);
            if (lengthA == 0 || lengthB == 0) {
                return lengthA == lengthB;
            }
            int limit = Math.min(COMPARED_CHARS, Math.min(lengthA, lengthB));
            int shared = 0;
            while (shared < limit) {
                int mismatch = Arrays.mismatch(chars, offsets[a] + shared, offsets[a] + limit,
                        chars, offsets[b] + shared, offsets[b] + limit);
                if (mismatch < 0) {
                    shared = limit;
                } else {
                    shared += mismatch;
                    if (!isDigit(chars[offsets[a] + shared]) || !isDigit(chars[offsets[b] + shared])) {
                        break;
                    }
                    shared++;
                }
            }
            if (shared == COMPARED_CHARS || shared == lengthA && shared == lengthB) {
                return true;
            }
            return shared >= MIN_SHARED_PREFIX && shared * 2 >= Math.max(lengthA, lengthB);
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }
    }

    /** Lines {@code first..last} of the output: one line (maybe an error line), or a run of near-identical ones. */
    private record Unit(int first, int last, boolean error) {

        boolean isRun() {
            return last > first;
        }

        /** Lines it takes when shown: a run shows its first line, a marker and its last line. */
        int shownLines() {
            return isRun() ? 3 : 1;
        }

        int size() {
            return last - first + 1;
        }
    }

    /** The pruned text being built, and what it cut. Not thread-safe: one per call. */
    private static final class Output {
        private final LineIndex lines;
        private final PruningLimits limit;
        private final Unread unread;
        private final List<String> out = new ArrayList<>();
        private long shownChars;
        private int keptLines;
        private int errorLinesKept;
        private int errorLinesCut;
        private int similarCollapsed;

        Output(LineIndex lines, PruningLimits limit, Unread unread) {
            this.lines = lines;
            this.limit = limit;
            this.unread = unread;
        }

        void listing(List<String> collapsed) {
            List<String> shown = collapsed;
            if (collapsed.size() > limit.headLines() + limit.tailLines() + 1) {
                shown = new ArrayList<>(collapsed.subList(0, limit.headLines()));
                shown.add(cutMarker(collapsed.size() - limit.headLines() - limit.tailLines(), "listing lines"));
                shown.addAll(collapsed.subList(collapsed.size() - limit.tailLines(), collapsed.size()));
            }
            for (String line : shown) {
                out.add(fit(line));
            }
        }

        /** Returns whether anything changed: a run collapsed, a line cut, or lines cut between head and tail. */
        boolean units(List<Unit> units) {
            int total = units.stream().mapToInt(Unit::shownLines).sum();
            // cutting to head and tail pays only when more than a marker's line goes
            if (total <= limit.headLines() + limit.tailLines() + 1) {
                units.forEach(this::show);
                return units.size() < lines.count() || lines.longest() > limit.maxLineChars();
            }
            int head = 0;
            int used = 0;
            while (head < units.size() && used + units.get(head).shownLines() <= limit.headLines()) {
                used += units.get(head++).shownLines();
            }
            int tail = units.size();
            used = 0;
            while (tail > head && used + units.get(tail - 1).shownLines() <= limit.tailLines()) {
                used += units.get(--tail).shownLines();
            }
            units.subList(0, head).forEach(this::show);
            int cutFrom = -1; // the first line of the stretch being cut, -1 when none
            for (Unit unit : units.subList(head, tail)) {
                if (unit.error() && errorLinesKept < limit.maxErrorLines()) {
                    if (cutFrom >= 0) {
                        out.add(cutMarker(cutFrom, unit.first() - 1));
                    }
                    cutFrom = -1;
                    show(unit);
                    errorLinesKept++;
                } else {
                    if (cutFrom < 0) {
                        cutFrom = unit.first();
                    }
                    errorLinesCut += unit.error() ? 1 : 0;
                }
            }
            if (cutFrom >= 0) {
                out.add(cutMarker(cutFrom, units.get(tail - 1).last()));
            }
            units.subList(tail, units.size()).forEach(this::show);
            return true;
        }

        private void show(Unit unit) {
            out.add(fit(unit.first()));
            if (unit.isRun()) {
                int from = unread.outputLine(unit.first() + 1);
                int to = unread.outputLine(unit.last() - 1);
                out.add("[... " + (unit.size() - 2) + " similar lines (" + (from == to ? "line " + from
                        : "lines " + from + "-" + to) + ") ...]");
                similarCollapsed += unit.size() - 2;
                out.add(fit(unit.last()));
            }
        }

        /** A line of the original, its middle cut when it is too long. */
        private String fit(int line) {
            if (unread.isMarker(line)) {
                return lines.line(line); // a marker: no line of the output
            }
            keptLines++;
            int length = lines.length(line);
            if (length <= limit.maxLineChars()) {
                shownChars += length;
                return lines.line(line);
            }
            return fit(lines.line(line));
        }

        private String fit(String line) {
            if (line.length() <= limit.maxLineChars()) {
                return line;
            }
            int keep = limit.lineEndChars();
            int headEnd = Character.isHighSurrogate(line.charAt(keep - 1)) ? keep - 1 : keep;
            int tailStart = Character.isLowSurrogate(line.charAt(line.length() - keep)) ? line.length() - keep + 1
                    : line.length() - keep;
            shownChars += headEnd + (line.length() - tailStart);
            return line.substring(0, headEnd) + " [... " + (tailStart - headEnd) + " chars cut ...] " + line.substring(tailStart);
        }

        /**
         * The marker of the lines {@code first..last} (of the text pruned) cut between the head and the tail, with
         * their numbers in the output, counting from 1, as {@code read_tool_output} reads it.
         */
        private String cutMarker(int first, int last) {
            int from = unread.outputLine(first);
            int to = unread.outputLine(last) + unread.markers().getOrDefault(last, 1) - 1;
            String numbers = from == to ? "line " + from : "lines " + from + "-" + to;
            return cutMarker(to - from + 1, "lines", " (" + numbers + ")");
        }

        private static String cutMarker(int count, String what) {
            return cutMarker(count, what, "");
        }

        private static String cutMarker(int count, String what, String where) {
            return "[... " + count + " " + (count == 1 ? what.substring(0, what.length() - 1) : what) + " cut" + where
                    + " ...]";
        }

        PrunedOutput finish(int originalChars, String hint) {
            int originalLines = unread.markers().isEmpty() ? lines.count() : unread.totalLines();
            int linesCut = Math.max(0, originalLines - keptLines);
            long charsCut = Math.max(0, originalChars - shownChars - (originalLines - 1L));
            StringBuilder summary = new StringBuilder("[Pruned tool output: ").append(count(originalLines, "line"))
                    .append(", ").append(originalChars).append(" chars; cut ");
            if (linesCut > 0) {
                summary.append(count(linesCut, "line")).append(" (").append(charsCut).append(" chars)");
            } else {
                summary.append(charsCut).append(" chars");
            }
            if (similarCollapsed > 0) {
                summary.append(", ").append(similarCollapsed).append(" of them similar to the lines around them");
            }
            if (errorLinesKept > 0) {
                summary.append(", kept ").append(count(errorLinesKept, "error line")).append(" from them");
            }
            if (errorLinesCut > 0) {
                summary.append(" (").append(count(errorLinesCut, "more error line")).append(" cut)");
            }
            summary.append(".]");
            if (hint != null && !hint.isBlank()) {
                summary.append(' ').append(hint.strip());
            }
            out.add(summary.toString());
            return new PrunedOutput(String.join("\n", out), true, originalLines, keptLines, linesCut, charsCut, errorLinesKept);
        }

        private static String count(long n, String noun) {
            return n + " " + (n == 1 ? noun : noun + "s");
        }
    }

    /**
     * Builds a {@link ToolOutputPruner}. Defaults (seed 003): {@link PruningMode#NORMAL} over 50 lines keeps 30 and 30,
     * at most 10 error lines, lines over 5,000 chars cut; {@link PruningMode#AGGRESSIVE} over 30 keeps 20 and 20, 6
     * error lines, 2,500 chars; {@link PruningMode#HYPER} over 15 keeps 10 and 10, 3 error lines, 1,200 chars. Runs of
     * 4 near-identical lines collapse; a collapsed directory shows 8 names. Not thread-safe.
     */
    public static final class Builder {

        private final Map<PruningMode, PruningLimits> limits = new EnumMap<>(PruningMode.class);
        private int minSimilarRun = 4;
        private int namesPerDirectory = 8;

        private Builder() {
            limits.put(PruningMode.NORMAL, PruningLimits.of(50, 30, 30, 10, 5000));
            limits.put(PruningMode.AGGRESSIVE, PruningLimits.of(30, 20, 20, 6, 2500));
            limits.put(PruningMode.HYPER, PruningLimits.of(15, 10, 10, 3, 1200));
        }

        /**
         * The limits of {@code mode}. Defaults, as {@link PruningLimits}{@code (maxLines, headLines, tailLines,
         * maxErrorLines, maxLineChars)}: normal {@code (50, 30, 30, 10, 5000)}, aggressive {@code (30, 20, 20, 6, 2500)},
         * hyper {@code (15, 10, 10, 3, 1200)}.
         */
        public Builder limits(PruningMode mode, PruningLimits limits) {
            this.limits.put(Ensure.notNull(mode, "mode"), Ensure.notNull(limits, "limits"));
            return this;
        }

        /** How many near-identical consecutive lines make a run that is collapsed; default 4, at least 3. */
        public Builder minSimilarRun(int lines) {
            this.minSimilarRun = lines;
            return this;
        }

        /** How many names a collapsed listing shows per directory; default 8. */
        public Builder namesPerDirectory(int names) {
            this.namesPerDirectory = names;
            return this;
        }

        /** @throws IllegalArgumentException when {@code minSimilarRun} is below 3 or {@code namesPerDirectory} below 1 */
        public ToolOutputPruner build() {
            return new ToolOutputPruner(this);
        }
    }
}
