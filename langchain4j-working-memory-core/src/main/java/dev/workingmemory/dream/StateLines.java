package dev.workingmemory.dream;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Line-level rules of the state document: normalizing a section's body, and telling substance from headings,
 * placeholders and labels.
 *
 * <p><b>Substance</b> is what a section says: every non-blank line of a body except sub-headings ({@code ###}),
 * fence markers, placeholder lines and label lines, measured without its list marker and emphasis. A
 * <b>placeholder</b> line says the section is empty: once list markers, emphasis, brackets and final punctuation are
 * removed it reads {@code none}, {@code none yet}, {@code n/a}, {@code -}, {@code tbd}, {@code nothing yet},
 * {@code empty}, {@code unknown}, {@code not yet}, {@code …} and the like. A <b>label</b> is a line in italics that ends
 * with a colon, as the seed's {@code _Use memory_search if user asks about these topics:_}: template text.
 *
 * <p>Thread-safe (stateless).
 */
final class StateLines {

    /** What the offline synthesizer writes in a section with nothing to say; a placeholder. */
    static final String PLACEHOLDER = "- None yet.";

    private static final Set<String> PLACEHOLDERS = Set.of("", "none", "none yet", "none so far", "n/a", "na", "-", "--",
            "—", "–", "tbd", "todo", "nothing", "nothing yet", "nothing here yet", "nothing to report", "empty",
            "unknown", "not yet", "not yet known", "no entries", "no entries yet", "no data", "no data yet", "pending",
            "...", "…", "null", "nil", "(none)", "same as before", "no change", "no changes", "unchanged");
    private static final Pattern LIST_MARKER = Pattern.compile("^\\s*(?:[-*+•]|\\d+[.)])\\s+");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~).*");
    private static final Pattern H2 = Pattern.compile("^##(?!#)\\s*(.*)$");

    private StateLines() {
    }

    /** Unix line breaks, no trailing whitespace on any line. */
    static List<String> lines(String text) {
        String unix = text.replace("\r\n", "\n").replace('\r', '\n');
        if (!unix.isEmpty() && unix.charAt(0) == '\uFEFF') {
            unix = unix.substring(1);
        }
        List<String> lines = new ArrayList<>();
        for (String line : unix.split("\n", -1)) {
            lines.add(line.stripTrailing());
        }
        return lines;
    }

    /**
     * A section body as the document keeps it: no blank lines at either end, no run of blank lines, pointer lines in
     * their canonical form, and no {@code ## } line outside a fence (it would start another section; it becomes
     * {@code ###}).
     */
    static String normalizeBody(List<String> lines) {
        List<String> out = new ArrayList<>();
        boolean inFence = false;
        for (String line : lines) {
            String kept = line.stripTrailing();
            if (FENCE.matcher(kept).matches()) {
                inFence = !inFence;
            } else if (!inFence) {
                if (H2.matcher(kept).matches()) {
                    kept = "#" + kept;
                } else {
                    kept = CrystalPointer.parse(kept).map(CrystalPointer::line).orElse(kept);
                }
            }
            if (kept.isBlank() && (out.isEmpty() || out.get(out.size() - 1).isEmpty())) {
                continue;
            }
            out.add(kept.isBlank() ? "" : kept);
        }
        while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        return String.join("\n", out);
    }

    static String normalizeBody(String body) {
        return normalizeBody(lines(body));
    }

    static boolean isH2(String line) {
        return H2.matcher(line).matches();
    }

    static boolean isFence(String line) {
        return FENCE.matcher(line).matches();
    }

    /** The characters of substance in {@code body} (see the class comment). */
    static int substance(String body) {
        int chars = 0;
        for (String line : lines(body)) {
            String stripped = line.strip();
            if (stripped.isEmpty() || stripped.startsWith("#") || isFence(stripped) || isPlaceholder(stripped)
                    || isLabel(stripped)) {
                continue;
            }
            chars += bare(stripped).length();
        }
        return chars;
    }

    /** Whether {@code line} only says that there is nothing. */
    static boolean isPlaceholder(String line) {
        String bare = bare(line).toLowerCase(Locale.ROOT);
        if (PLACEHOLDERS.contains(bare)) {
            return true;
        }
        while (bare.length() >= 2 && (bare.startsWith("(") && bare.endsWith(")")
                || bare.startsWith("[") && bare.endsWith("]"))) {
            bare = bare.substring(1, bare.length() - 1).strip();
        }
        while (!bare.isEmpty() && ".!;:".indexOf(bare.charAt(bare.length() - 1)) >= 0) {
            bare = bare.substring(0, bare.length() - 1).strip();
        }
        return PLACEHOLDERS.contains(bare);
    }

    /** An italic line ending with a colon: a template label such as the seed's memory_search hint. */
    static boolean isLabel(String line) {
        String s = line.strip();
        boolean italic = s.length() > 2 && (s.startsWith("_") && s.endsWith("_") || s.startsWith("*") && s.endsWith("*"));
        return italic && s.replaceAll("^[_*]+|[_*]+$", "").strip().endsWith(":");
    }

    /** The line without list marker and emphasis markers at its ends. */
    static String bare(String line) {
        String s = LIST_MARKER.matcher(line.strip()).replaceFirst("");
        return s.replaceAll("^[_*`\\s]+|[_*`\\s]+$", "");
    }

    /** {@code text} on one line: runs of whitespace, line breaks included, become one space. */
    static String oneLine(String text) {
        return text.strip().replaceAll("\\s+", " ");
    }

    /**
     * {@code text} cut to at most {@code max} characters at a word boundary, ending with {@code …} when cut.
     */
    static String clip(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        if (max <= 1) {
            return text.substring(0, Math.max(0, max));
        }
        int end = max - 1;
        int space = text.lastIndexOf(' ', end);
        if (space >= max / 2) {
            end = space;
        }
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end).stripTrailing() + "…";
    }
}
