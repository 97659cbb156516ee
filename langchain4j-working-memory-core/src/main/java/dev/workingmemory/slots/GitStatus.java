package dev.workingmemory.slots;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The files {@code git status} reports as changed (modified, added, renamed, in conflict), for the pool; deleted
 * and untracked files are not work in progress. Both the long format and {@code --short}. Thread-safe (stateless).
 */
final class GitStatus {

    private static final Pattern LONG_ENTRY = Pattern.compile(
            "^\\s+(modified|new file|renamed|copied|typechange|both modified|both added|added by us|added by them): +(.+)$");
    /** How the lines that open git status's long format start. */
    private static final List<String> LONG_HEADERS = List.of("On branch ", "HEAD detached ", "Changes to be committed:",
            "Changes not staged for commit:", "Unmerged paths:");
    private static final Pattern SHORT_ENTRY = Pattern.compile("^([ MADRCUT?!])([ MADRCUT?!]) (\\S.*)$");

    private GitStatus() {
    }

    static void find(List<String> lines, Found found) {
        List<String> changed = longFormat(lines);
        if (changed.isEmpty()) {
            changed = shortFormat(lines);
        }
        changed.forEach(found::path);
    }

    private static List<String> longFormat(List<String> lines) {
        boolean status = false;
        List<String> changed = new ArrayList<>();
        for (String line : lines) {
            if (line.length() > BuildErrors.MAX_LINE) {
                continue;
            }
            if (Texts.startsWithAny(line, LONG_HEADERS)) {
                status = true;
            } else if (status) {
                Matcher m = LONG_ENTRY.matcher(line);
                if (m.matches()) {
                    changed.add(renamedTo(m.group(2)));
                }
            }
        }
        return changed;
    }

    /** Every non-blank line an entry (or the {@code ##} branch line); otherwise it is not short status output. */
    private static List<String> shortFormat(List<String> lines) {
        List<String> changed = new ArrayList<>();
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("## ")) {
                continue;
            }
            Matcher m = line.length() <= BuildErrors.MAX_LINE ? SHORT_ENTRY.matcher(line) : null;
            if (m == null || !m.matches()) {
                return List.of();
            }
            String xy = m.group(1) + m.group(2);
            if (xy.contains("?") || xy.contains("!") || xy.strip().equals("D") || xy.equals("DD")) {
                continue;
            }
            changed.add(renamedTo(m.group(3)));
        }
        return changed;
    }

    private static String renamedTo(String entry) {
        int arrow = entry.indexOf(" -> ");
        return (arrow < 0 ? entry : entry.substring(arrow + 4)).strip();
    }
}
