package dev.workingmemory.store;

import dev.workingmemory.internal.Ensure;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What the stores share about notes log lines. Thread-safe (stateless). */
final class NoteLines {

    private NoteLines() {
    }

    /** Rejects what cannot be one line of a log. */
    static String check(String line) {
        Ensure.notNull(line, "line");
        Ensure.that(!line.isBlank(), "A notes log line must not be blank");
        Ensure.that(line.indexOf('\n') < 0 && line.indexOf('\r') < 0, "A notes log line must not contain a line break");
        return line;
    }

    /** {@code lines} without one occurrence of each of {@code removed}, in their order. */
    static List<String> without(List<String> lines, Collection<String> removed) {
        Map<String, Integer> toRemove = new HashMap<>();
        for (String line : removed) {
            toRemove.merge(Ensure.notNull(line, "line"), 1, Integer::sum);
        }
        List<String> kept = new ArrayList<>(lines.size());
        for (String line : lines) {
            Integer count = toRemove.get(line);
            if (count == null) {
                kept.add(line);
            } else if (count == 1) {
                toRemove.remove(line);
            } else {
                toRemove.put(line, count - 1);
            }
        }
        return kept;
    }
}
