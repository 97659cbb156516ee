package dev.workingmemory.spring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the tests read of this module's README.md, to check it against what the application and the model get. */
final class StarterReadme {

    static final String TOOLS_SECTION = "## The tools the model gets";
    /** A tool's name as the first cell of a table row: {@code | `memory_search(query, limit)` | …}. */
    private static final Pattern TOOL_ROW = Pattern.compile("^\\| `([A-Za-z_]+)\\(");

    private StarterReadme() {
    }

    static String text() {
        try {
            return Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("The tests run in the module's directory, beside README.md", e);
        }
    }

    /** The tool names of the table under {@link #TOOLS_SECTION}, in its order. */
    static List<String> toolNames() {
        String text = text();
        int start = text.indexOf(TOOLS_SECTION);
        if (start < 0) {
            throw new IllegalStateException("README.md has no section '" + TOOLS_SECTION + "'");
        }
        int end = text.indexOf("\n## ", start + TOOLS_SECTION.length());
        List<String> names = new ArrayList<>();
        for (String line : text.substring(start, end < 0 ? text.length() : end).split("\n")) {
            Matcher row = TOOL_ROW.matcher(line);
            if (row.find()) {
                names.add(row.group(1));
            }
        }
        return names;
    }
}
